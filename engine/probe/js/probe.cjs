// @ts-check
// The probe: loads one package by name with require() and then import(),
// from the temporary directory whose node_modules holds it, and reports
// each loader's outcome on stdout, on lines that start with the nonce read
// from stdin (which the package cannot see, so it cannot forge a result).
'use strict';

const fs = require('fs');
const writeSync = fs.writeSync;
const stringify = JSON.stringify;
const exit = process.exit.bind(process);
const ownNames = Object.getOwnPropertyNames;
const getProto = Object.getPrototypeOf;
const toString = Object.prototype.toString;

const nonce = fs.readFileSync(0, 'utf8').trim();
const name = process.argv[2];
const denied = /** @type {string[]} */ (/** @type {any} */ (globalThis)[Symbol.for('uptide.probe.denied')] || []);
const MAX_KEYS = 2000;

/** @param {object} msg */
function emit(msg) {
  writeSync(1, '\n' + nonce + stringify(msg) + '\n');
}

/** @param {unknown} v */
function constructable(v) {
  if (typeof v !== 'function') return false;
  try {
    // new.target must be a constructor; v itself is never called.
    Reflect.construct(String, [], v);
    return true;
  } catch {
    return false;
  }
}

/** @param {unknown} v */
function member(v) {
  /** @type {{type: string, callable?: boolean, constructable?: boolean}} */
  const m = { type: v === null ? 'null' : typeof v };
  if (typeof v === 'function') {
    m.callable = true;
    if (constructable(v)) m.constructable = true;
  }
  return m;
}

const builtinProtos = new Set([Object.prototype, Function.prototype]);
const functionOwn = new Set(['length', 'name', 'prototype', 'arguments', 'caller']);

/** Own and inherited string keys, up to the built-in prototypes. @param {any} v */
function keysOf(v) {
  const keys = new Set();
  let o = v;
  for (let depth = 0; o != null && !builtinProtos.has(o) && depth < 16; depth++) {
    let names = [];
    try { names = ownNames(o); } catch { break; }
    for (const k of names) {
      if (k === 'constructor' || k === '__proto__' || (typeof o === 'function' && functionOwn.has(k))) continue;
      keys.add(k);
    }
    try { o = getProto(o); } catch { break; }
  }
  return [...keys].sort();
}

/** @param {any} v @param {number} depth */
function describe(v, depth) {
  /** @type {any} */
  const out = member(v);
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return out;
  if (toString.call(v) === '[object Module]') out.namespace = true;
  const keys = keysOf(v);
  if (keys.length > MAX_KEYS) out.keysTruncated = true;
  /** @type {Record<string, any>} */
  const shaped = {};
  for (const k of keys.slice(0, MAX_KEYS)) {
    try { shaped[k] = member(v[k]); } catch { shaped[k] = { type: 'unreadable' }; }
  }
  out.keys = shaped;
  if (depth === 0 && keys.includes('default')) {
    try {
      const d = v.default;
      if (d !== v) out.default = describe(d, 1);
    } catch { /* an unreadable default is listed as such among the keys */ }
  }
  return out;
}

/** @param {any} e */
function failure(e) {
  /** @type {any} */
  const out = { threw: true, code: (e && typeof e.code === 'string') ? e.code : '', message: '' };
  try { out.message = String(e && e.message !== undefined ? e.message : e).slice(0, 600); } catch { out.message = 'an unprintable error'; }
  if (!out.code && e && e.name) out.code = String(e.name);
  if (out.code === 'MODULE_NOT_FOUND' || out.code === 'ERR_MODULE_NOT_FOUND') {
    const m = /Cannot find (?:module|package) '([^']+)'/.exec(out.message);
    if (m && !m[1].startsWith('.') && !m[1].startsWith('/') && !m[1].startsWith('node:')) {
      const parts = m[1].split('/');
      out.missing = m[1].startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (Array.isArray(e.requireStack) && e.requireStack.length) out.importer = String(e.requireStack[0]);
      const from = / imported from (.+)$/.exec(out.message.split('\n')[0]);
      if (from) out.importer = from[1];
    }
  }
  return out;
}

async function main() {
  /** @type {any} */
  let req;
  try {
    req = { value: describe(require(name), 0) };
  } catch (e) {
    req = failure(e);
  }
  emit({ step: 'require', load: req, denied: denied.slice() });
  /** @type {any} */
  let imp;
  try {
    imp = { value: describe(await import(name), 0) };
  } catch (e) {
    imp = failure(e);
  }
  emit({ step: 'import', load: imp, denied: denied.slice() });
  exit(0);
}

main().catch((e) => {
  emit({ step: 'error', load: failure(e), denied: denied.slice() });
  exit(0);
});

// @ts-check
'use strict';

// The parsed repository, shared by every program the driver builds from
// the repository's files: Signal A's workspace programs (workspace.js) and
// Signal B's baseline and overlay (compile.js). A check reads the same
// workspace with the same tsconfig in both, so the lib files, the installed
// packages' declarations and the sources are parsed (and bound) once per
// driver process, not once per signal.
//
// Files are parsed without the parser's parent pass, as tsc parses them:
// every program here creates its checker, whose binder sets the parents of
// every node before anything reads them.
//
// A SourceFile is handed out again only to a program that would have
// produced the same one: the key holds what parsing reads (language
// version, module format, module detection, JSDoc parsing) and what binding
// reads (strictness, fallthrough checks), and the entry its file's size and
// modification time.

const fs = require('fs');
const path = require('path');
const { inside } = require('./paths');
const { tscJSDocMode } = require('./compat');

const MAX_SOURCES = 50000;

/** @type {Map<string, {version: string, sf: import('typescript').SourceFile}>} */
const files = new Map();
/** The SourceFiles files holds. @type {WeakSet<import('typescript').SourceFile>} */
let live = new WeakSet();

/**
 * The options a SourceFile's parse and bind depend on, besides what the
 * compiler passes to getSourceFile.
 * @param {import('typescript').CompilerOptions} options
 */
function optionsKey(options) {
  const o = /** @type {any} */ (options);
  return JSON.stringify([o.target, o.module, o.moduleDetection, o.jsx, o.strict, o.alwaysStrict, o.noFallthroughCasesInSwitch,
    o.preserveConstEnums, o.isolatedModules, o.verbatimModuleSyntax]);
}

/** @param {string} f */
function fileVersion(f) {
  try {
    const st = fs.statSync(f);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return '';
  }
}

/**
 * Installs the shared cache as host.getSourceFile, and tsc's JSDoc parsing.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').CompilerHost} host
 * @param {import('typescript').CompilerOptions} options
 */
function shareSources(ts, host, options) {
  const jsDocMode = tscJSDocMode(ts);
  if (jsDocMode !== undefined) /** @type {any} */ (host).jsDocParsingMode = jsDocMode;
  const canonical = host.getCanonicalFileName.bind(host);
  const orig = host.getSourceFile.bind(host);
  const optKey = optionsKey(options) + '|' + String(jsDocMode);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const lv = /** @type {any} */ (languageVersionOrOptions);
    const mode = typeof lv === 'object' && lv ? `${lv.languageVersion}|${lv.impliedNodeFormat}` : String(lv);
    const key = canonical(path.resolve(fileName)) + '|' + mode + '|' + optKey;
    const version = fileVersion(fileName);
    const hit = files.get(key);
    if (hit && version && hit.version === version && !shouldCreateNewSourceFile) return hit.sf;
    const sf = orig(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    if (sf && version) {
      /** @type {any} */ (sf).version = version;
      if (files.size >= MAX_SOURCES) {
        files.clear();
        live = new WeakSet();
      }
      const old = files.get(key);
      if (old) live.delete(old.sf);
      files.set(key, { version, sf });
      live.add(sf);
    }
    return sf;
  };
  return host;
}

/**
 * Whether sf is the file the cache holds for its name, as it is on disk.
 * @param {import('typescript').SourceFile} sf
 */
function current(sf) {
  const v = /** @type {any} */ (sf).version;
  return !!v && live.has(sf) && v === fileVersion(sf.fileName);
}

/**
 * Drops the parsed files inside dirs (a target's declarations: parsed once
 * per compile, not kept for the run).
 * @param {string[]} dirs
 */
function forgetInside(dirs) {
  for (const [key, entry] of files) {
    const f = path.resolve(entry.sf.fileName);
    if (dirs.some((d) => inside(d, f))) {
      files.delete(key);
      live.delete(entry.sf);
    }
  }
}

module.exports = { shareSources, forgetInside, fileVersion, current };

// @ts-check
'use strict';

// Loading the compiler: typescript.js is 9 MB of JavaScript, and V8
// compiling it is most of a driver's start. Node 22.1+ keeps the compiled
// code in NODE_COMPILE_CACHE itself (uptide sets it); on older nodes the
// driver keeps V8's code cache for the file there, keyed by the file, its
// size and modification time, and the node that made it. A cache V8
// rejects (another V8 build, a damaged file) is made again; a cache that
// cannot be read or written costs only the time it would have saved.

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const crypto = require('crypto');
const Module = require('module');

/**
 * The compiler module at file, as require(file) gives it.
 * @param {string} file
 * @returns {any}
 */
function loadCompiler(file) {
  const dir = process.env.NODE_COMPILE_CACHE;
  if (!dir || typeof (/** @type {any} */ (Module).enableCompileCache) === 'function') return require(file);
  let abs, st, source;
  try {
    abs = require.resolve(file);
    st = fs.statSync(abs);
    source = fs.readFileSync(abs, 'utf8');
  } catch {
    return require(file);
  }
  const key = crypto.createHash('sha256').update(`${abs}\0${st.size}\0${st.mtimeMs}\0${process.version}\0${process.arch}`).digest('hex').slice(0, 32);
  const cacheFile = path.join(dir, `v8-${key}.bin`);
  /** @type {Buffer | undefined} */
  let cached;
  try {
    cached = fs.readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: abs, cachedData: cached });
  const m = new Module(abs);
  m.filename = abs;
  m.paths = (/** @type {any} */ (Module))._nodeModulePaths(path.dirname(abs));
  const fn = script.runInThisContext();
  fn.call(m.exports, m.exports, Module.createRequire(abs), m, abs, path.dirname(abs));
  m.loaded = true;
  if (!cached || script.cachedDataRejected) {
    try {
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, cacheFile);
    } catch {
      // No cache this time.
    }
  }
  return m.exports;
}

module.exports = { loadCompiler };

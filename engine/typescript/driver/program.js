// @ts-check
'use strict';

// One compiler Program over a package's declaration files. The host only sees
// the package directories and the compiler's own lib files: nothing is
// installed next to an extracted tarball, and a copy that happens to sit in a
// node_modules must give the same surface as a fetched one. Lib files are
// parsed once per driver process and shared by every program.

const fs = require('fs');
const path = require('path');
const { inside } = require('./entries');
const compat = require('./compat');
const { readText } = require('./regular');

/** @type {Map<string, import('typescript').SourceFile>} */
const libCache = new Map();
// The DOM lib is left out: it doubles the cold start, and a surface only
// prints DOM types by name; both sides of a comparison see them alike.
const LIBS = ['lib.esnext.d.ts'];

/**
 * @param {typeof import('typescript')} ts
 * @param {string[]} rootNames
 * @param {string[]} allowedDirs real paths of the package directories
 * @param {(fileName: string, text: string) => string} [rewrite] edits a package file's text before parsing
 */
function createProgram(ts, rootNames, allowedDirs, rewrite) {
  /** @type {import('typescript').CompilerOptions} */
  const options = {
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: compat.bundlerResolution(ts),
    lib: LIBS,
    types: [],
    noEmit: true,
    skipLibCheck: true,
    strict: true,
    resolveJsonModule: true,
    allowArbitraryExtensions: true,
  };
  const host = ts.createCompilerHost(options, true);
  const libDir = path.dirname(host.getDefaultLibFileName(options));
  /** @param {string} p */
  const allowed = (p) => inside(libDir, p) || allowedDirs.some((d) => inside(d, p));
  const origFileExists = host.fileExists.bind(host);
  const origDirExists = host.directoryExists ? host.directoryExists.bind(host) : () => true;
  const origReadFile = host.readFile.bind(host);
  host.fileExists = (f) => allowed(path.resolve(f)) && origFileExists(f);
  host.directoryExists = (d) => allowed(path.resolve(d)) && origDirExists(d);
  host.readFile = (f) => (allowed(path.resolve(f)) ? origReadFile(f) : undefined);
  host.getDirectories = (d) => (allowed(path.resolve(d)) ? safeDirs(d) : []);
  host.realpath = (p) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  host.getSourceFile = (fileName, languageVersionOrOptions, onError) => {
    const abs = path.resolve(fileName);
    // JSDoc is read from comment text where it matters (jsdoc.js); parsing it
    // into nodes costs more than the rest of the parse.
    const sourceOptions = compat.sourceFileOptions(ts, languageVersionOrOptions, true);
    if (inside(libDir, abs)) {
      let sf = libCache.get(abs);
      if (!sf) {
        const text = origReadFile(abs);
        if (text === undefined) return undefined;
        sf = ts.createSourceFile(abs, text, sourceOptions, true);
        libCache.set(abs, sf);
      }
      return sf;
    }
    if (!allowed(abs)) return undefined;
    let text;
    try {
      text = readText(abs);
    } catch (err) {
      // A declaration too large to read leaves no surface worth the name:
      // the request fails, saying which file and the limit.
      if (/** @type {any} */ (err).code === 'TOO_LARGE') throw err;
      if (onError) onError(String(err));
      return undefined;
    }
    if (rewrite) text = rewrite(abs, text);
    return ts.createSourceFile(fileName, text, sourceOptions, true);
  };
  return ts.createProgram({ rootNames, options, host });
}

/**
 * Parses and binds the lib files ahead of the first program (a warm
 * comparison worker does this while it waits for work).
 * @param {typeof import('typescript')} ts
 */
function warmLibs(ts) {
  const options = { target: ts.ScriptTarget.ESNext, lib: LIBS };
  const libDir = path.dirname(ts.getDefaultLibFilePath(options));
  createProgram(ts, LIBS.map((l) => path.join(libDir, l)), []).getTypeChecker();
}

/** @param {string} d */
function safeDirs(d) {
  try {
    return fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

module.exports = { createProgram, warmLibs };

// @ts-check
'use strict';

// Path and module-name helpers the compile, the native judgment and the
// cause tracer share, so "inside a directory", "a bare specifier's
// package" and "a program's root files" mean one thing across the driver.

const fs = require('fs');
const path = require('path');
const { DriverError } = require('./protocol');
const { readText } = require('./regular');

/**
 * The real path of p, or p resolved when it does not exist.
 * @param {string} p
 */
function real(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Whether p is root or below it (both absolute and normalized).
 * @param {string} root
 * @param {string} p
 */
function inside(root, p) {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Whether a module specifier names a package (not a relative, absolute or
 * #imports one).
 * @param {string} name
 */
function isBare(name) {
  return !(name.startsWith('.') || name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(name) || name.startsWith('#'));
}

/**
 * The package a bare specifier names: "@scope/pkg/sub" → "@scope/pkg".
 * @param {string} spec
 */
function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * A request's absolute path, or a BAD_REQUEST naming the field.
 * @param {any} v
 * @param {string} what
 */
function requireAbs(v, what) {
  if (typeof v !== 'string' || !path.isAbsolute(v)) throw new DriverError('BAD_REQUEST', `${what} must be an absolute path, got ${JSON.stringify(v)}`);
  return path.resolve(v);
}

/**
 * @template T
 * @param {T[]} xs
 */
function uniq(xs) {
  return [...new Set(xs)];
}

/**
 * The files in scope, plus every file that contributes declarations to the
 * whole program without being imported, as the repository's own tsc sees
 * them: declaration files, the files the tsconfig lists by name (`files`),
 * scripts (a file with no import or export declares globals), and sources
 * that augment or reference: `declare global`, `declare module`, a
 * triple-slash reference, or a side-effect import of a package (a test
 * setup's `import '@testing-library/jest-dom/vitest'` augments `expect`
 * for every test file). Without them global names would fail on both
 * sides and drown the count of pre-existing errors in errors the
 * repository does not have.
 * @param {{fileNames: string[], explicitFiles?: string[]}} project
 * @param {string[]} files
 */
function rootsOf(project, files) {
  const roots = new Set(files);
  const explicit = new Set((project.explicitFiles || []).map((f) => path.resolve(f)));
  for (const f of project.fileNames) {
    if (roots.has(f)) continue;
    if (/\.d\.(c|m)?ts$/.test(f) || explicit.has(path.resolve(f))) {
      roots.add(f);
      continue;
    }
    let text = '';
    try {
      text = readText(f);
    } catch {
      continue;
    }
    if (contributesGlobals(text, f)) roots.add(f);
  }
  return [...roots];
}

// Declarations that reach every file of a program.
const GLOBAL_DECLARATION = /\bdeclare\s+(global\b|module\s+['"])|^\s*\/\/\/\s*<reference\s/m;
// `import 'pkg'` and `import "pkg/sub"`: a package loaded for its effects,
// which in a declaration is an augmentation.
const SIDE_EFFECT_IMPORT = /(?:^|[;}\n])\s*import\s*['"](?![./])[^'"\n]+['"]/;
// Anything that makes a file a module.
const MODULE_SYNTAX = /(?:^|[;}\n])\s*(?:import|export)\b(?!\s*\()/;

/**
 * Whether a source file's text declares something every file of the
 * program sees. Comments are blanked first, so a commented-out import
 * neither makes a script a module nor adds an augmentation.
 * @param {string} text
 * @param {string} file
 */
function contributesGlobals(text, file) {
  if (GLOBAL_DECLARATION.test(text)) return true;
  const code = withoutComments(text);
  if (SIDE_EFFECT_IMPORT.test(code)) return true;
  // A TypeScript script: its top-level declarations are global. JavaScript
  // scripts are left out: a checked JS file's globals are rare, and every
  // CommonJS file is a script to this test.
  return /\.(c|m)?tsx?$/.test(file) && !/\.d\./.test(file) && !MODULE_SYNTAX.test(code);
}

/**
 * The text with its comments blanked (strings and template literals kept
 * whole, so a URL's // stays).
 * @param {string} text
 */
function withoutComments(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '/' && n === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && !(c !== '`' && text[j] === '\n')) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * The DefinitelyTyped package of a module ("@types/react" for react,
 * "@types/babel__core" for @babel/core).
 * @param {string} name
 */
function typesName(name) {
  return '@types/' + (name.startsWith('@') ? name.slice(1).replace('/', '__') : name);
}

/**
 * The module a DefinitelyTyped package types ("react" for @types/react,
 * "@babel/core" for @types/babel__core); '' for any other package.
 * @param {string} name
 */
function typedModule(name) {
  if (!name.startsWith('@types/')) return '';
  const bare = name.slice('@types/'.length);
  const i = bare.indexOf('__');
  return i > 0 ? '@' + bare.slice(0, i) + '/' + bare.slice(i + 2) : bare;
}

module.exports = { real, inside, isBare, packageOf, requireAbs, uniq, rootsOf, contributesGlobals, typesName, typedModule };

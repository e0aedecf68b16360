// @ts-check
'use strict';

// Path and module-name helpers the compile, the native judgment and the
// cause tracer share, so "inside a directory", "a bare specifier's
// package" and "a program's root files" mean one thing across the driver.

const fs = require('fs');
const path = require('path');
const { DriverError } = require('./protocol');

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
 * The files in scope, plus what is global without being imported: the
 * project's declaration files and sources that augment (declare global,
 * declare module). Without them *.module.css imports and global names would
 * fail on both sides and drown the count of pre-existing errors.
 * @param {{fileNames: string[]}} project
 * @param {string[]} files
 */
function rootsOf(project, files) {
  const roots = new Set(files);
  for (const f of project.fileNames) {
    if (roots.has(f)) continue;
    if (/\.d\.(c|m)?ts$/.test(f)) {
      roots.add(f);
      continue;
    }
    let text = '';
    try {
      text = fs.readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    if (/\bdeclare\s+(global\b|module\s+['"])/.test(text)) roots.add(f);
  }
  return [...roots];
}

module.exports = { real, inside, isBare, packageOf, requireAbs, uniq, rootsOf };

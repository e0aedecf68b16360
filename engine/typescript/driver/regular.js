// @ts-check
'use strict';

// Only regular files are ever opened, and no TypeScript file larger than
// a compiler can hold. Opening a named pipe blocks until something writes
// to it (and a device may never end), so a FIFO a repository names as a
// tsconfig it extends or as a source would hang the driver forever, deaf
// to its stdin closing. A declaration file of hundreds of megabytes (a
// bomb installed in node_modules) would take the heap for minutes before
// it ran out. Each read is a stat first.

const fs = require('fs');
const { DriverError } = require('./protocol');

// The largest TypeScript file read: the limit uptide puts on a tarball's
// files when it extracts one (engine/registry/extract.go), far above any
// real package's (googleapis' largest declaration file is 11 MB).
const MAX_TS_FILE_MB = 32;
const TS_FILE = /\.(?:[cm]?ts|tsx)$/;

/** @param {string} file */
function statOf(file) {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

/**
 * Throws (TOO_LARGE) when file is TypeScript larger than MAX_TS_FILE_MB.
 * @param {string} file
 * @param {fs.Stats} st
 */
function checkSize(file, st) {
  if (st.size > MAX_TS_FILE_MB << 20 && TS_FILE.test(file)) {
    throw new DriverError(
      'TOO_LARGE',
      `${file} is ${Math.floor(st.size / (1 << 20))} MB of TypeScript, more than the ${MAX_TS_FILE_MB} MB a compiler is given to read`
    );
  }
}

/** @param {string} file */
function isRegular(file) {
  const st = statOf(file);
  return st !== null && st.isFile();
}

/**
 * The text of file, which must be a regular file of a readable size.
 * @param {string} file
 * @returns {string}
 */
function readText(file) {
  const st = fs.statSync(file); // throws ENOENT and the like as readFileSync would
  if (!st.isFile()) {
    const err = /** @type {NodeJS.ErrnoException} */ (new Error(`${file} is not a regular file (${kindOf(st)})`));
    err.code = 'ENOTREG';
    throw err;
  }
  checkSize(file, st);
  return fs.readFileSync(file, 'utf8');
}

/** @param {fs.Stats} st */
function kindOf(st) {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isDirectory()) return 'a directory';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a file';
}

/**
 * Makes ts.sys.readFile, which every host the driver builds reads through,
 * answer "cannot read" for anything but a regular file, as it does for a
 * missing one, and refuse (throw, which a compiler host reports as "cannot
 * read file" with the reason) a TypeScript file too large. Done once,
 * before any host exists.
 * @param {typeof import('typescript')} ts
 */
function guardSys(ts) {
  const read = ts.sys.readFile;
  ts.sys.readFile = (file, encoding) => {
    const st = statOf(file);
    if (st === null || !st.isFile()) return undefined;
    checkSize(file, st);
    return read(file, encoding);
  };
}

module.exports = { isRegular, readText, guardSys };

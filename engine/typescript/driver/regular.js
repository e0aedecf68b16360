// @ts-check
'use strict';

// Only regular files are ever opened. Opening a named pipe blocks until
// something writes to it (and a device may never end), so a FIFO a
// repository names as a tsconfig it extends or as a source would hang the
// driver forever, deaf to its stdin closing. Each read is a stat first.

const fs = require('fs');

/** @param {string} file */
function isRegular(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The text of file, which must be a regular file.
 * @param {string} file
 * @returns {string}
 */
function readText(file) {
  if (!isRegular(file)) {
    const st = fs.statSync(file); // throws ENOENT and the like as readFileSync would
    const err = /** @type {NodeJS.ErrnoException} */ (new Error(`${file} is not a regular file (${kindOf(st)})`));
    err.code = 'ENOTREG';
    throw err;
  }
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
 * missing one. Done once, before any host exists.
 * @param {typeof import('typescript')} ts
 */
function guardSys(ts) {
  const read = ts.sys.readFile;
  ts.sys.readFile = (file, encoding) => (isRegular(file) ? read(file, encoding) : undefined);
}

module.exports = { isRegular, readText, guardSys };

// @ts-check
'use strict';

// The workspace dependencies a program reads from their sources: the Go
// side maps each one's built entry points (dist/index.d.ts) to the files
// they were built from (src/index.ts) and sends the map as sourcePaths;
// every program of the workspace (the usage scan, the baseline, the
// overlay) gets it as compilerOptions.paths, so none of them reads a stale
// build.

const path = require('path');
const { DriverError } = require('./protocol');

/**
 * The request's sourcePaths, checked: module specifier -> absolute files.
 * @param {any} params
 * @returns {Record<string, string[]> | null}
 */
function sourcePathsOf(params) {
  const sp = params.sourcePaths;
  if (sp === undefined || sp === null) return null;
  if (typeof sp !== 'object' || Array.isArray(sp)) throw new DriverError('BAD_REQUEST', 'sourcePaths must map module names to lists of absolute paths');
  /** @type {Record<string, string[]>} */
  const out = {};
  for (const k of Object.keys(sp).sort()) {
    const v = sp[k];
    if (k === '' || !Array.isArray(v) || v.length === 0 || v.some((f) => typeof f !== 'string' || !path.isAbsolute(f))) {
      throw new DriverError('BAD_REQUEST', `sourcePaths[${JSON.stringify(k)}] must be a list of absolute paths`);
    }
    out[k] = v.slice();
  }
  return Object.keys(out).length ? out : null;
}

/**
 * The options with the source paths added. The repository's own paths win
 * over them: a mapping the tsconfig writes is deliberate.
 * @param {import('typescript').CompilerOptions} options
 * @param {Record<string, string[]> | null} sourcePaths
 * @returns {import('typescript').CompilerOptions}
 */
function withSourcePaths(options, sourcePaths) {
  if (!sourcePaths) return options;
  return { ...options, paths: { ...sourcePaths, ...(options.paths || {}) } };
}

module.exports = { sourcePathsOf, withSourcePaths };

// @ts-check
'use strict';

// JSON lines: one request {id, method, params} per line in, one response
// {id, result} or {id, error: {code, message}} per line out. A long request
// may send {id, progress} lines before its response. A method may answer
// with a promise; the client sends its next request only after the answer.

const readline = require('readline');

class DriverError extends Error {
  /**
   * @param {string} code machine-readable: NO_TYPES, BAD_REQUEST, INTERNAL, TOO_LARGE
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * @typedef {{progress: (p: unknown) => void}} RequestContext
 */

/**
 * @param {NodeJS.ReadableStream} input
 * @param {NodeJS.WritableStream} output
 * @param {Record<string, (params: any, rc: RequestContext) => any>} methods
 */
function serve(input, output, methods) {
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (line.trim() === '') return;
    /** @type {any} */
    let req;
    try {
      req = JSON.parse(line);
    } catch (err) {
      write(output, { id: null, error: { code: 'BAD_REQUEST', message: 'request is not JSON' } });
      return;
    }
    const id = req && req.id;
    const fn = req && typeof req.method === 'string' ? methods[req.method] : undefined;
    if (!fn) {
      write(output, { id, error: { code: 'BAD_REQUEST', message: `unknown method ${JSON.stringify(req && req.method)}` } });
      return;
    }
    /** @param {unknown} err */
    const fail = (err) => {
      const e = /** @type {any} */ (err);
      const code = e instanceof DriverError ? e.code : 'INTERNAL';
      const message = e instanceof DriverError ? e.message : String((e && e.stack) || e);
      write(output, { id, error: { code, message } });
    };
    try {
      const result = fn(req.params || {}, { progress: (p) => write(output, { id, progress: p }) });
      if (result && typeof result.then === 'function') {
        result.then((/** @type {unknown} */ r) => write(output, { id, result: r }), fail);
      } else {
        write(output, { id, result });
      }
    } catch (err) {
      fail(err);
    }
  });
  // No process.exit here: a pending write of a large answer to a pipe would
  // be cut off. With stdin closed and nothing left to write, node exits.
  rl.on('close', () => {
    process.exitCode = 0;
  });
}

/**
 * @param {NodeJS.WritableStream} output
 * @param {unknown} msg
 */
function write(output, msg) {
  output.write(JSON.stringify(msg) + '\n');
}

module.exports = { serve, DriverError };

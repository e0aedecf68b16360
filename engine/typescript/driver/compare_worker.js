// @ts-check
'use strict';

// One comparison worker: a thread with its own compiler and, per request, its
// own program over both versions. The pool (compare_pool.js) sends
//   {type: 'start', params}  build the program, answer {type: 'ready', units}
//   {type: 'relate', unit}   answer {type: 'related', unit, relation | gaveUp}
//   {type: 'release'}        drop the program, stay warm for the next start
// and terminates the worker when a question runs over its budget: the checker
// cannot be interrupted from inside, and a thread's heap is the only memory
// that can be given back whole. The compiler is loaded and its lib files bound
// before the first start, so a spare worker is ready when it is needed.

const v8 = require('v8');
const { parentPort, workerData } = require('worker_threads');
const { DriverError } = require('./protocol');
const { prepareComparison, relateUnit } = require('./compare');
const { warmLibs } = require('./program');

function main() {
  if (!parentPort) throw new Error('compare_worker.js runs as a worker thread');
  const port = parentPort;
  /** @type {typeof import('typescript')} */
  const ts = require('./load').loadCompiler(workerData.tsPath);
  warmLibs(ts);
  /** @type {ReturnType<typeof prepareComparison> | null} */
  let current = null;
  port.on('message', (/** @type {any} */ msg) => {
    switch (msg.type) {
      case 'start':
        current = null;
        try {
          current = prepareComparison(ts, msg.params);
        } catch (err) {
          const e = /** @type {any} */ (err);
          port.postMessage({
            type: 'fatal',
            code: e instanceof DriverError ? e.code : 'INTERNAL',
            message: e instanceof DriverError ? e.message : String((e && e.stack) || e),
          });
          return;
        }
        port.postMessage({ type: 'ready', units: current.units.map((u) => ({ paths: u.paths, family: u.family })), heapMb: heapMb() });
        return;
      case 'relate': {
        const unit = current && current.units[msg.unit];
        const result = current && unit ? relateUnit(ts, current.checker, unit) : { gaveUp: true };
        port.postMessage({ type: 'related', unit: msg.unit, relation: result.relation, gaveUp: !!result.gaveUp, unresolved: !!result.unresolved, heapMb: heapMb() });
        return;
      }
      case 'release':
        current = null;
        return;
    }
  });
}

// The worker's own heap: each worker thread is a V8 isolate of its own.
function heapMb() {
  return Math.round(v8.getHeapStatistics().used_heap_size / (1 << 20));
}

main();

// @ts-check
'use strict';

// compareTypes with budgets. A single relation question can cost minutes and
// gigabytes (zod 3.25's bundled zod 4 beta against zod 4.1: `transform`
// returns a generic of `this`, which drags both class hierarchies into one
// structural comparison), and the checker cannot be interrupted from inside.
// So the questions run in worker threads, one at a time per worker, and a
// worker is terminated when its question runs over the per-question budget
// or out of its heap, and replaced when its heap has grown past the
// recycling mark (the relation caches are only freed with the program). A
// question that is stopped is reported as skipped with the reason, never as
// an answer; the caller keeps the text verdict for its paths.
//
// Determinism: questions are paired up, ordered and answered the same way
// whichever worker answers them. Only the time budgets depend on the
// machine; they sit far above what a question that ends at all takes, and
// what they stop is named in the answer.

const os = require('os');
const path = require('path');
const { Worker } = require('worker_threads');
const { DriverError } = require('./protocol');

/**
 * @typedef {import('./compare').PathRelation} PathRelation
 * @typedef {'budget' | 'budget-family' | 'limit' | 'memory' | 'deadline' | 'crash' | 'unresolved'} SkipReason
 *   budget: the question ran over its time budget; budget-family: not asked,
 *   because the first question of its family (the same two declarations
 *   through another container) ran over its time or memory; limit: the
 *   checker gave up on its own (instantiation or comparison limit); memory:
 *   the worker ran out of heap; deadline: the comparison's total time ran
 *   out first; crash: the worker died otherwise.
 * @typedef {{
 *   unitBudgetMs: number, totalBudgetMs: number, workers: number,
 *   workerHeapMb: number, recycleHeapMb: number,
 * }} Budgets
 * @typedef {{relations: Record<string, PathRelation>, skipped: Record<string, SkipReason>,
 *   units: number, workersStarted: number}} PoolResult
 * @typedef {{paths: string[], family: number}} UnitInfo
 * @typedef {{relation: PathRelation} | {skipped: SkipReason}} Outcome
 * @typedef {{
 *   worker: Worker, unit: number, timer?: NodeJS.Timeout, gone: boolean, ready: boolean,
 *   heapMb: number, spawnedAt: number, off: () => void,
 * }} Slot
 */

/** @type {Budgets} */
const DEFAULTS = {
  unitBudgetMs: 5000,
  totalBudgetMs: 30000,
  workers: Math.max(1, Math.min(2, os.cpus().length)),
  workerHeapMb: 1536,
  recycleHeapMb: 768,
};

// A second worker builds its own program; it pays off only when there are
// enough questions to keep the first one busy while it does.
const UNITS_PER_EXTRA_WORKER = 64;

// UPTIDE_DRIVER_TRACE=1 writes a stderr line per question and per worker.
const trace = process.env.UPTIDE_DRIVER_TRACE === '1';

/**
 * One idle worker with the compiler loaded and its lib files bound, kept for
 * the next program: loading the compiler costs a worker a second on a busy
 * machine, and the previous request's last worker is as good as a new one.
 * @type {{worker: Worker, tsPath: string, heapMb: number, drop: () => void} | null}
 */
let spare = null;

/**
 * @param {string} tsPath the compiler the workers load
 * @param {{pkgA: string, pkgB: string, name: string, paths: string[], budgets?: Partial<Budgets>}} params
 * @param {(p: {done: number, total: number, skipped: number}) => void} onProgress
 * @returns {Promise<PoolResult>}
 */
function compareInWorkers(tsPath, params, onProgress) {
  if (!Array.isArray(params.paths)) return Promise.reject(new DriverError('BAD_REQUEST', 'paths must be a list'));
  const budgets = withDefaults(params.budgets);
  const workerParams = { pkgA: params.pkgA, pkgB: params.pkgB, name: params.name, paths: params.paths };

  return new Promise((resolve, reject) => {
    /** @type {UnitInfo[] | null} */
    let units = null;
    /** @type {(Outcome | undefined)[]} */
    let results = [];
    // Questions not yet asked, in order. One whose family's first question
    // is still running waits here, and is skipped if that one ran over.
    /** @type {number[]} */
    let pending = [];
    /** @type {number[]} */
    const startedAt = [];
    let answered = 0;
    // Progress counts paths, the unit the caller asked in.
    let pathsDone = 0;
    let pathsSkipped = 0;
    let pathsTotal = 0;
    let workersStarted = 0;
    let settled = false;
    /** @type {Set<Slot>} */
    const slots = new Set();
    // Ready workers with nothing to ask for now.
    /** @type {Set<Slot>} */
    const idle = new Set();

    const deadline = setTimeout(() => {
      if (settled) return;
      if (!units) {
        fail(new DriverError('TIMEOUT', `the program holding both versions was not ready after ${budgets.totalBudgetMs} ms`));
        return;
      }
      for (let i = 0; i < units.length; i++) record(i, { skipped: 'deadline' });
      finish();
    }, budgets.totalBudgetMs);

    let lastProgress = 0;
    /** @param {boolean} force */
    const progress = (force) => {
      const now = Date.now();
      if (!force && now - lastProgress < 250) return;
      lastProgress = now;
      onProgress({ done: pathsDone, total: pathsTotal, skipped: pathsSkipped });
    };

    function spawn() {
      workersStarted++;
      const worker = takeWorker(tsPath, budgets.workerHeapMb);
      /** @type {Slot} */
      const slot = { worker, unit: -1, gone: false, ready: false, heapMb: 0, spawnedAt: Date.now(), off: () => {} };
      const onMsg = (/** @type {any} */ msg) => onMessage(slot, msg);
      const onErr = (/** @type {any} */ err) => onDeath(slot, err);
      const onExit = () => onDeath(slot, null);
      worker.on('message', onMsg);
      worker.on('error', onErr);
      worker.on('exit', onExit);
      slot.off = () => {
        worker.off('message', onMsg);
        worker.off('error', onErr);
        worker.off('exit', onExit);
      };
      slots.add(slot);
      worker.postMessage({ type: 'start', params: workerParams });
    }

    /**
     * @param {Slot} slot
     * @param {any} msg
     */
    function onMessage(slot, msg) {
      if (settled || slot.gone) return;
      if (typeof msg.heapMb === 'number') slot.heapMb = msg.heapMb;
      switch (msg.type) {
        case 'fatal':
          fail(new DriverError(msg.code, msg.message));
          return;
        case 'ready': {
          slot.ready = true;
          if (trace) process.stderr.write(`compare: worker ready after ${Date.now() - slot.spawnedAt} ms, heap ${msg.heapMb} MB\n`);
          /** @type {UnitInfo[]} */
          const got = msg.units;
          if (!units) {
            units = got;
            results = new Array(units.length);
            pathsTotal = units.reduce((n, u) => n + u.paths.length, 0);
            pending = units.map((_, i) => i);
            if (units.length === 0) {
              finish();
              return;
            }
            progress(true);
            const wanted = Math.min(budgets.workers, 1 + Math.floor(units.length / UNITS_PER_EXTRA_WORKER));
            for (let i = slots.size; i < wanted; i++) spawn();
          } else if (got.length !== units.length) {
            fail(new DriverError('INTERNAL', `two comparison workers paired the paths differently (${units.length} and ${got.length} questions)`));
            return;
          }
          dispatch(slot);
          return;
        }
        case 'related':
          if (slot.unit !== msg.unit) return;
          clearTimeout(slot.timer);
          slot.unit = -1;
          record(msg.unit, msg.gaveUp ? { skipped: 'limit' } : msg.unresolved ? { skipped: 'unresolved' } : { relation: msg.relation });
          if (settled) return;
          // After the checker gave up, its caches hold "not related" for
          // what it was comparing; a fresh program does not.
          if (msg.gaveUp || slot.heapMb > budgets.recycleHeapMb) replace(slot);
          else dispatch(slot);
          wake();
          return;
      }
    }

    /** @param {Slot} slot */
    function dispatch(slot) {
      if (settled) return;
      const list = /** @type {UnitInfo[]} */ (units);
      let unit = -1;
      for (let k = 0; k < pending.length; k++) {
        const i = pending[k];
        const family = list[i].family;
        const first = family === i ? undefined : results[family];
        if (family !== i && !first) continue; // waits for its family's first question
        pending.splice(k--, 1);
        if (first && 'skipped' in first && (first.skipped === 'budget' || first.skipped === 'memory')) {
          record(i, { skipped: 'budget-family' });
          if (settled) return;
          continue;
        }
        unit = i;
        break;
      }
      if (unit < 0) {
        idle.add(slot);
        return;
      }
      idle.delete(slot);
      slot.unit = unit;
      startedAt[unit] = Date.now();
      slot.timer = setTimeout(() => {
        if (settled || slot.unit !== unit) return;
        slot.unit = -1;
        record(unit, { skipped: 'budget' });
        if (settled) return;
        replace(slot);
        wake();
      }, budgets.unitBudgetMs);
      slot.worker.postMessage({ type: 'relate', unit });
    }

    // A question ended: family members waiting for it may be askable now.
    function wake() {
      for (const s of [...idle]) {
        if (settled) return;
        dispatch(s);
      }
    }

    /**
     * @param {Slot} slot
     * @param {any} err null for an exit
     */
    function onDeath(slot, err) {
      if (settled || slot.gone) return;
      clearTimeout(slot.timer);
      const oom = !!err && err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (!units) {
        fail(oom
          ? new DriverError('INTERNAL', `the program holding both versions does not fit in ${budgets.workerHeapMb} MB`)
          : new DriverError('INTERNAL', 'the comparison worker stopped before it was ready: ' + String((err && err.stack) || err || 'it exited')));
        return;
      }
      const reason = oom ? 'memory' : 'crash';
      if (!slot.ready) {
        // The first worker built this program; a replacement that cannot
        // will not do better the next time.
        stop(slot);
        for (const i of pending) record(i, { skipped: reason });
        pending = [];
        if (!settled && answered === units.length) finish();
        return;
      }
      const unit = slot.unit;
      slot.unit = -1;
      if (unit >= 0) record(unit, { skipped: reason });
      if (settled) return;
      replace(slot);
      wake();
    }

    /** @param {Slot} slot */
    function stop(slot) {
      if (slot.gone) return;
      slot.gone = true;
      clearTimeout(slot.timer);
      idle.delete(slot);
      slots.delete(slot);
      slot.off();
      slot.worker.terminate().catch(() => {});
    }

    /** @param {Slot} slot */
    function replace(slot) {
      stop(slot);
      // A new worker pays for a whole program: worth it when nobody else
      // is left, or when enough questions remain to keep it busy.
      if (pending.length > 0 && (slots.size === 0 || pending.length >= UNITS_PER_EXTRA_WORKER)) {
        spawn();
        // One replacement is often followed by another (a family of slow
        // questions, a growing heap): keep the next one warming.
        warmSpare(tsPath, budgets.workerHeapMb);
      }
    }

    /**
     * @param {number} unit
     * @param {Outcome} r
     */
    function record(unit, r) {
      if (results[unit]) return;
      results[unit] = r;
      answered++;
      const n = units ? units[unit].paths.length : 0;
      pathsDone += n;
      if ('skipped' in r) pathsSkipped += n;
      if (trace && units) {
        const ms = startedAt[unit] ? Date.now() - startedAt[unit] : 0;
        process.stderr.write(`compare: ${ms} ms ${'skipped' in r ? r.skipped : 'ok'} ${units[unit].paths.join(' ')}\n`);
      }
      progress(false);
      if (units && answered === units.length) finish();
    }

    function finish() {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      // The healthiest idle worker becomes the spare; the rest stop.
      let kept = false;
      for (const s of [...slots]) {
        if (!kept && s.ready && s.unit < 0 && s.heapMb <= budgets.recycleHeapMb) {
          kept = true;
          slots.delete(s);
          s.gone = true;
          s.off();
          keepSpare(s.worker, tsPath, budgets.workerHeapMb);
        } else stop(s);
      }
      if (!kept) warmSpare(tsPath, budgets.workerHeapMb);
      const list = units || [];
      /** @type {Record<string, PathRelation>} */
      const relations = {};
      /** @type {Record<string, SkipReason>} */
      const skipped = {};
      list.forEach(({ paths }, i) => {
        const r = results[i];
        for (const p of paths) {
          if (r && 'relation' in r) relations[p] = r.relation;
          else skipped[p] = r && 'skipped' in r ? r.skipped : 'deadline';
        }
      });
      progress(true);
      resolve({ relations, skipped, units: list.length, workersStarted });
    }

    /** @param {Error} err */
    function fail(err) {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      for (const s of [...slots]) stop(s);
      reject(err);
    }

    spawn();
  });
}

/**
 * @param {string} tsPath
 * @param {number} heapMb
 */
function newWorker(tsPath, heapMb) {
  return new Worker(path.join(__dirname, 'compare_worker.js'), {
    workerData: { tsPath },
    // Effective because main.js clears the process-wide
    // --max-old-space-size that sized its own heap: V8's flag overrides
    // every isolate's own limit.
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    // stdout is the protocol's: nothing a worker prints may reach it. The
    // stream is left unread (reading it would keep the driver alive).
    stdout: true,
  });
}

/**
 * @param {string} tsPath
 * @param {number} heapMb
 */
function takeWorker(tsPath, heapMb) {
  const s = spare;
  spare = null;
  if (s && s.tsPath === tsPath && s.heapMb === heapMb) {
    s.worker.off('error', s.drop);
    s.worker.off('exit', s.drop);
    s.worker.ref();
    return s.worker;
  }
  if (s) s.worker.terminate().catch(() => {});
  return newWorker(tsPath, heapMb);
}

/**
 * @param {string} tsPath
 * @param {number} heapMb
 */
function warmSpare(tsPath, heapMb) {
  if (!spare) keepSpare(newWorker(tsPath, heapMb), tsPath, heapMb);
}

/**
 * @param {Worker} worker
 * @param {string} tsPath
 * @param {number} heapMb
 */
function keepSpare(worker, tsPath, heapMb) {
  if (spare) spare.worker.terminate().catch(() => {});
  // Its program goes; an idle spare holds the compiler and the libs only.
  worker.postMessage({ type: 'release' });
  // An idle spare must not keep the driver alive once stdin closes.
  worker.unref();
  /** @type {{worker: Worker, tsPath: string, heapMb: number, drop: () => void}} */
  const entry = { worker, tsPath, heapMb, drop: () => {} };
  entry.drop = () => {
    if (spare === entry) spare = null;
  };
  worker.on('error', entry.drop);
  worker.on('exit', entry.drop);
  spare = entry;
}

/**
 * @param {Partial<Budgets> | undefined} given
 * @returns {Budgets}
 */
function withDefaults(given) {
  /** @type {Budgets} */
  const b = { ...DEFAULTS };
  if (given && typeof given === 'object') {
    for (const k of /** @type {(keyof Budgets)[]} */ (Object.keys(DEFAULTS))) {
      const v = given[k];
      if (typeof v === 'number' && Number.isFinite(v) && v > 0) b[k] = v;
    }
  }
  return b;
}

module.exports = { compareInWorkers, DEFAULTS };

// @ts-check
'use strict';

// The questions of compareTypes: assignability both ways between the same
// paths of two versions of a package, in one program holding both, so the
// checker relates their types structurally. A package that declares itself
// as an ambient module ("declare module 'stripe'") would merge with its other
// version, so each copy's own module name is rewritten to a private one
// first. compare_pool.js asks them in worker threads, under budgets.

const { DriverError } = require('./protocol');
const { analyze, openPackage, topOf } = require('./surface');
const { createProgram } = require('./program');
const { Walker } = require('./walk');
const { Printer } = require('./serialize');
const compat = require('./compat');

/**
 * @typedef {{aToB: boolean, bToA: boolean}} Relation
 * @typedef {Relation & {overloads?: {params: Relation[], return: Relation}[]}} PathRelation
 */

/**
 * @typedef {{paths: string[], ta: import('typescript').Type, tb: import('typescript').Type, family: number, unresolved: boolean}} Unit
 *   one question for the checker: paths whose nodes resolve to the same pair
 *   of types (zod's X, z.X and default.X) are answered once. family is the
 *   index of the first unit whose two sides come from the same two
 *   declarations (an inherited member seen through each subclass): their
 *   questions differ only in `this`, and so, in practice, does their cost.
 */

/**
 * Builds the program holding both versions and pairs up the asked paths.
 * @param {typeof import('typescript')} ts
 * @param {{pkgA: string, pkgB: string, name: string, paths: string[]}} params
 * @returns {{checker: import('typescript').TypeChecker, units: Unit[]}}
 */
function prepareComparison(ts, params) {
  if (!Array.isArray(params.paths)) throw new DriverError('BAD_REQUEST', 'paths must be a list');
  const openedA = openPackage(ts, params.pkgA, params.name);
  const openedB = openPackage(ts, params.pkgB, params.name);
  const name = params.name || (typeof openedA.pkg.name === 'string' ? openedA.pkg.name : '');
  const aliasA = name ? name + '__uptide_a' : '';
  const aliasB = name ? name + '__uptide_b' : '';
  const renameA = renamer(name, aliasA);
  const renameB = renamer(name, aliasB);
  /** @param {string} file @param {string} text */
  const rewrite = (file, text) => {
    if (file.startsWith(openedA.realDir + '/')) return renameA(text);
    if (file.startsWith(openedB.realDir + '/')) return separateGlobals(renameB(text));
    return text;
  };
  const roots = [...new Set([...openedA.entries, ...openedB.entries].map((e) => e.file))];
  const program = createProgram(ts, roots, [openedA.realDir, openedB.realDir], rewrite);
  const checker = program.getTypeChecker();
  tsByChecker.set(checker, ts);
  globalDiagnostics(checker); // fails the request here, not every question
  const printer = new Printer(ts);
  const onlyTops = new Set(params.paths.map(topOf));
  const a = analyze(ts, { pkgDir: params.pkgA, name: aliasA }, { program, opened: openedA, onlyTops, walker: new Walker(ts, checker, [openedA.realDir], printer) });
  const b = analyze(ts, { pkgDir: params.pkgB, name: aliasB }, { program, opened: openedB, onlyTops, globalAlias: GLOBAL_B, walker: new Walker(ts, checker, [openedB.realDir], printer) });
  const wanted = new Set(params.paths);
  const byPathA = new Map(a.placed.filter((p) => wanted.has(p.path)).map((p) => [p.path, p.node]));
  const byPathB = new Map(b.placed.filter((p) => wanted.has(p.path)).map((p) => [p.path, p.node]));

  /** @type {Unit[]} */
  const units = [];
  /** @type {Map<import('typescript').Type, Map<import('typescript').Type, Unit>>} */
  const byTypes = new Map();
  /** @type {Map<string, number>} */
  const families = new Map();
  for (const p of [...wanted].sort()) {
    const na = byPathA.get(p);
    const nb = byPathB.get(p);
    if (!na || !nb) continue;
    const ta = typeOf(ts, checker, na);
    const tb = typeOf(ts, checker, nb);
    if (!ta || !tb) continue;
    let m = byTypes.get(ta);
    if (!m) byTypes.set(ta, (m = new Map()));
    const u = m.get(tb);
    if (u) u.paths.push(p);
    else {
      const declarations = `${na.typeRole}\0${na.file}:${na.pos}\0${nb.file}:${nb.pos}`;
      let family = families.get(declarations);
      if (family === undefined || na.file === undefined || nb.file === undefined) {
        family = units.length;
        families.set(declarations, family);
      }
      // A name imported from a dependency that is not installed is the
      // error type, which the checker relates like any (and a union holding
      // it collapses to it): a verdict that they relate is about types it
      // never saw. Only "not related" survives such a name.
      const unresolved = mentionsUnresolved(ts, checker, ta) || mentionsUnresolved(ts, checker, tb);
      const unit = { paths: [p], ta, tb, family, unresolved };
      m.set(tb, unit);
      units.push(unit);
    }
  }
  return { checker, units };
}

/**
 * Answers one unit.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {Unit} unit
 * @returns {{relation?: PathRelation, gaveUp?: boolean, unresolved?: boolean}}
 */
function relateUnit(ts, checker, unit) {
  resetInstantiationCount(ts, checker);
  const before = globalDiagnostics(checker);
  /** @type {PathRelation} */
  const rel = relate(checker, unit.ta, unit.tb);
  // Functions, methods and function-typed properties (callbacks) alike.
  // A relation that holds between types naming an unresolved dependency
  // is no verdict (see prepareComparison): such a part declines the unit.
  let guessed = unit.unresolved && (rel.aToB || rel.bToA);
  const overloads = perOverload(ts, checker, unit.ta, unit.tb, (a, b, r) => {
    if (unit.unresolved && (r.aToB || r.bToA) && (mentionsUnresolved(ts, checker, a) || mentionsUnresolved(ts, checker, b))) guessed = true;
  });
  if (overloads) rel.overloads = overloads;
  // The checker reports hitting one of its limits (5 million instantiations,
  // relation complexity or depth) as a diagnostic without a file and answers
  // with the error type or "not related": a guess, not a verdict. Reading
  // the global diagnostics makes the next report copy the list, so a new
  // list means a new report, even one equal to an earlier one.
  if (globalDiagnostics(checker) !== before) return { gaveUp: true };
  if (guessed) return { unresolved: true };
  return { relation: rel };
}

/**
 * The checker's own list of diagnostics without a file (internal API, there
 * since TypeScript 2: the program's public getter copies and sorts it, which
 * would hide whether anything was added).
 * @param {import('typescript').TypeChecker} checker
 * @returns {readonly unknown[]}
 */
function globalDiagnostics(checker) {
  const c = /** @type {{getGlobalDiagnostics?: () => readonly unknown[]}} */ (/** @type {unknown} */ (checker));
  if (typeof c.getGlobalDiagnostics !== 'function') throw new DriverError('INTERNAL', 'this TypeScript has no TypeChecker.getGlobalDiagnostics: compare cannot tell a verdict from a guess');
  return c.getGlobalDiagnostics();
}

/**
 * The checker counts instantiations per statement it checks and gives up at
 * five million; questions asked through the API are no statement, so the
 * count would run on across every unit of a run and the later ones would
 * hit the limit for the earlier ones' work. Checking an expression is what
 * resets it; a literal in a file of its own costs nothing else.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 */
function resetInstantiationCount(ts, checker) {
  const sf = ts.createSourceFile('uptide-reset.ts', '0;', ts.ScriptTarget.ESNext, true);
  const stmt = sf.statements[0];
  if (stmt && ts.isExpressionStatement(stmt)) checker.getTypeAtLocation(stmt.expression);
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('./walk').Node} node
 */
function typeOf(ts, checker, node) {
  if (node.typeRole === 'index') return node.indexType;
  if (!node.sym) return undefined;
  if (node.typeRole === 'declared') return checker.getDeclaredTypeOfSymbol(node.sym);
  if (node.typeRole === 'value') return compat.typeOfSymbol(ts, checker, node.sym);
  return undefined;
}

/**
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} a
 * @param {import('typescript').Type} b
 * @returns {Relation}
 */
function relate(checker, a, b) {
  const rel = { aToB: checker.isTypeAssignableTo(a, b), bToA: checker.isTypeAssignableTo(b, a) };
  if (rel.aToB && rel.bToA) optionKeys(checker, a, b, rel);
  return rel;
}

/**
 * Two object types whose properties are all optional (an options bag:
 * resize(options: {width?, height?})) relate both ways whatever keys they
 * have, but an object literal naming a key the other lacks fails its excess
 * property check, and options are passed as literals. So for such types a
 * key only one side has makes the other side no longer accept it: the
 * side with fewer keys is the narrower one.
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} a
 * @param {import('typescript').Type} b
 * @param {Relation} rel
 */
function optionKeys(checker, a, b, rel) {
  const ka = optionBagKeys(checker, a);
  const kb = ka && optionBagKeys(checker, b);
  if (!ka || !kb) return;
  for (const k of ka) if (!kb.has(k)) rel.aToB = false;
  for (const k of kb) if (!ka.has(k)) rel.bToA = false;
}

/**
 * The property names of a plain object type whose properties are all
 * optional, or undefined for anything else (primitives, unions, callables,
 * arrays, index signatures, a type with a required property).
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} t
 * @returns {Set<string> | undefined}
 */
function optionBagKeys(checker, t) {
  const ts = tsOf(checker);
  if (!ts) return undefined;
  t = checker.getNonNullableType(t);
  if (!(t.flags & ts.TypeFlags.Object) || checker.isArrayLikeType(t)) return undefined;
  if (checker.getSignaturesOfType(t, ts.SignatureKind.Call).length || checker.getSignaturesOfType(t, ts.SignatureKind.Construct).length) return undefined;
  if (checker.getIndexInfosOfType(t).length) return undefined;
  const props = checker.getPropertiesOfType(t);
  if (props.length === 0) return undefined;
  const keys = new Set();
  for (const p of props) {
    if (!(p.flags & ts.SymbolFlags.Optional)) return undefined;
    keys.add(p.escapedName);
  }
  return keys;
}

/** @type {WeakMap<import('typescript').TypeChecker, typeof import('typescript')>} */
const tsByChecker = new WeakMap();
/** @param {import('typescript').TypeChecker} checker */
function tsOf(checker) {
  return tsByChecker.get(checker);
}

/**
 * Whether a type is, or is built from (union and intersection members,
 * type arguments, a callable's parameters and return, a few levels down),
 * the error type an unresolved name gets.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} t
 */
function mentionsUnresolved(ts, checker, t) {
  /** @type {Set<import('typescript').Type>} */
  const seen = new Set();
  /** @param {import('typescript').Type} x @param {number} depth @returns {boolean} */
  const visit = (x, depth) => {
    if (!x || seen.has(x) || depth > 4) return false;
    seen.add(x);
    if (x.flags & ts.TypeFlags.Any && /** @type {any} */ (x).intrinsicName === 'error') return true;
    if (x.flags & ts.TypeFlags.UnionOrIntersection) {
      return /** @type {import('typescript').UnionOrIntersectionType} */ (x).types.some((y) => visit(y, depth + 1));
    }
    if (x.flags & ts.TypeFlags.Object) {
      const ref = /** @type {import('typescript').TypeReference} */ (x);
      if (/** @type {import('typescript').ObjectType} */ (x).objectFlags & ts.ObjectFlags.Reference && ref.typeArguments) {
        if (ref.typeArguments.some((y) => visit(y, depth + 1))) return true;
      }
      for (const sig of checker.getSignaturesOfType(x, ts.SignatureKind.Call)) {
        if (visit(checker.getReturnTypeOfSignature(sig), depth + 1)) return true;
        for (const p of sig.parameters) if (visit(compat.typeOfSymbol(ts, checker, p), depth + 1)) return true;
      }
      // An inline object type ({ agent: Agent }) is part of the type asked
      // about; a named one is asked about under its own path.
      if (/** @type {import('typescript').ObjectType} */ (x).objectFlags & ts.ObjectFlags.Anonymous) {
        const props = checker.getPropertiesOfType(x);
        if (props.length <= 64 && props.some((p) => visit(compat.typeOfSymbol(ts, checker, p), depth + 1))) return true;
      }
    }
    return false;
  };
  return visit(t, 0);
}


/**
 * Parameter by parameter when both sides have the same number of
 * non-generic overloads.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} ta
 * @param {import('typescript').Type} tb
 * @param {(a: import('typescript').Type, b: import('typescript').Type, r: Relation) => void} seen told of every part related
 */
function perOverload(ts, checker, ta, tb, seen) {
  const sa = checker.getSignaturesOfType(ta, ts.SignatureKind.Call);
  const sb = checker.getSignaturesOfType(tb, ts.SignatureKind.Call);
  if (sa.length === 0 || sa.length !== sb.length) return undefined;
  if ([...sa, ...sb].some((s) => s.typeParameters && s.typeParameters.length)) return undefined;
  return sa.map((x, i) => {
    const y = sb[i];
    const n = Math.min(x.parameters.length, y.parameters.length);
    /** @type {Relation[]} */
    const ps = [];
    /** @param {import('typescript').Type} a @param {import('typescript').Type} b */
    const part = (a, b) => {
      const r = relate(checker, a, b);
      seen(a, b, r);
      return r;
    };
    for (let j = 0; j < n; j++) {
      ps.push(part(compat.typeOfSymbol(ts, checker, x.parameters[j]), compat.typeOfSymbol(ts, checker, y.parameters[j])));
    }
    return { params: ps, return: part(checker.getReturnTypeOfSignature(x), checker.getReturnTypeOfSignature(y)) };
  });
}

// B's global augmentations would merge with A's into one global Window, and
// the checker would relate its property to itself. In B they become a
// module-local namespace of this name, which the walk reads as "global".
const GLOBAL_B = '__uptide_global_b';

/**
 * declare global { … } → declare namespace __uptide_global_b { … }. Only a
 * module may augment the global scope, and in a module a namespace of that
 * name is local to it: B's globals keep their own declarations, apart from
 * A's and the lib's. A script (no top-level import or export: @types/jest)
 * declares globals at its top level; its body, after the triple-slash
 * directives, goes inside such a namespace instead, unless it declares
 * ambient modules, which a namespace cannot hold (those globals still merge
 * with A's: the checker then relates them to themselves).
 * @param {string} text
 */
function separateGlobals(text) {
  if (/^(import|export)\b/m.test(text)) {
    return text.replace(/\bdeclare\s+global\s*\{/g, `declare namespace ${GLOBAL_B} {`);
  }
  if (/\bdeclare\s+module\s*['"]/.test(text)) return text;
  const head = /^(?:\s*(?:\/\/\/[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\/))*/.exec(text);
  const at = head ? head[0].length : 0;
  return `${text.slice(0, at)}\ndeclare namespace ${GLOBAL_B} {\n${text.slice(at)}\n}\n`;
}

/**
 * @param {string} name
 * @param {string} alias
 * @returns {(text: string) => string}
 */
function renamer(name, alias) {
  if (!name) return (t) => t;
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const re = new RegExp(`(['"])${escaped}(/[^'"\\n]*)?\\1`, 'g');
  return (text) => text.replace(re, (_m, q, rest) => q + alias + (rest || '') + q);
}

module.exports = { prepareComparison, relateUnit };

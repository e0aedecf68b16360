// @ts-check
'use strict';

// compareTypes: assignability both ways between the same paths of two
// versions of a package, in one program holding both, so the checker relates
// their types structurally. A package that declares itself as an ambient
// module ("declare module 'stripe'") would merge with its other version, so
// each copy's own module name is rewritten to a private one first.

const { DriverError } = require('./protocol');
const { analyze, openPackage, topOf } = require('./surface');
const { createProgram } = require('./program');
const { Walker } = require('./walk');
const { Printer } = require('./serialize');

/**
 * @typedef {{aToB: boolean, bToA: boolean}} Relation
 * @typedef {Relation & {overloads?: {params: Relation[], return: Relation}[]}} PathRelation
 */

/**
 * @param {typeof import('typescript')} ts
 * @param {{pkgA: string, pkgB: string, name: string, paths: string[]}} params
 */
function compareTypes(ts, params) {
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
    if (file.startsWith(openedB.realDir + '/')) return renameB(text);
    return text;
  };
  const roots = [...new Set([...openedA.entries, ...openedB.entries].map((e) => e.file))];
  const program = createProgram(ts, roots, [openedA.realDir, openedB.realDir], rewrite);
  const checker = program.getTypeChecker();
  const printer = new Printer(ts);
  const onlyTops = new Set(params.paths.map(topOf));
  const a = analyze(ts, { pkgDir: params.pkgA, name: aliasA }, { program, opened: openedA, onlyTops, walker: new Walker(ts, checker, [openedA.realDir], printer) });
  const b = analyze(ts, { pkgDir: params.pkgB, name: aliasB }, { program, opened: openedB, onlyTops, walker: new Walker(ts, checker, [openedB.realDir], printer) });
  const wanted = new Set(params.paths);
  const byPathA = new Map(a.placed.filter((p) => wanted.has(p.path)).map((p) => [p.path, p.node]));
  const byPathB = new Map(b.placed.filter((p) => wanted.has(p.path)).map((p) => [p.path, p.node]));

  /** @type {Record<string, PathRelation>} */
  const relations = {};
  for (const p of [...wanted].sort()) {
    const na = byPathA.get(p);
    const nb = byPathB.get(p);
    if (!na || !nb) continue;
    const ta = typeOf(checker, na);
    const tb = typeOf(checker, nb);
    if (!ta || !tb) continue;
    /** @type {PathRelation} */
    const rel = relate(checker, ta, tb);
    // Functions, methods and function-typed properties (callbacks) alike.
    const overloads = perOverload(ts, checker, ta, tb);
    if (overloads) rel.overloads = overloads;
    relations[p] = rel;
  }
  return { relations };
}

/**
 * @param {import('typescript').TypeChecker} checker
 * @param {import('./walk').Node} node
 */
function typeOf(checker, node) {
  if (node.typeRole === 'index') return node.indexType;
  if (!node.sym) return undefined;
  if (node.typeRole === 'declared') return checker.getDeclaredTypeOfSymbol(node.sym);
  if (node.typeRole === 'value') return checker.getTypeOfSymbol(node.sym);
  return undefined;
}

/**
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} a
 * @param {import('typescript').Type} b
 * @returns {Relation}
 */
function relate(checker, a, b) {
  return { aToB: checker.isTypeAssignableTo(a, b), bToA: checker.isTypeAssignableTo(b, a) };
}

/**
 * Parameter by parameter when both sides have the same number of
 * non-generic overloads.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} ta
 * @param {import('typescript').Type} tb
 */
function perOverload(ts, checker, ta, tb) {
  const sa = checker.getSignaturesOfType(ta, ts.SignatureKind.Call);
  const sb = checker.getSignaturesOfType(tb, ts.SignatureKind.Call);
  if (sa.length === 0 || sa.length !== sb.length) return undefined;
  if ([...sa, ...sb].some((s) => s.typeParameters && s.typeParameters.length)) return undefined;
  return sa.map((x, i) => {
    const y = sb[i];
    const n = Math.min(x.parameters.length, y.parameters.length);
    /** @type {Relation[]} */
    const ps = [];
    for (let j = 0; j < n; j++) {
      ps.push(relate(checker, checker.getTypeOfSymbol(x.parameters[j]), checker.getTypeOfSymbol(y.parameters[j])));
    }
    return { params: ps, return: relate(checker, checker.getReturnTypeOfSignature(x), checker.getReturnTypeOfSignature(y)) };
  });
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

module.exports = { compareTypes };

// @ts-check
'use strict';

// The sites of a package that ships no declarations, read from the syntax
// alone: with no surface there is no symbol to resolve, but the loads are
// there, and so are the member chains read from what they bind
// (const f = require('p'); f.a.b()). The runtime probe judges them by
// those chains; a name shadowed inside the file is taken for the binding,
// which errs towards a site too many.

/**
 * @typedef {import('./loads').Load} Load
 * @typedef {{prefix: string[], loader: string, subpath: string}} Binding
 */

/**
 * The usages of the package in one file that loads it directly: one at
 * each load (symbolPath '', access 'import'), one at each member chain
 * read from what the load gives.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} sf
 * @param {string} file repository-relative
 * @param {Map<Load, {target: 'pkg' | 'barrel', subpath: string}>} hits
 * @param {boolean} checked
 * @returns {Record<string, unknown>[]}
 */
function bareUsages(ts, sf, file, hits, checked) {
  /** @type {Record<string, unknown>[]} */
  const out = [];
  const seen = new Set();
  /**
   * @param {import('typescript').Node} node
   * @param {string[]} chain
   * @param {string} access
   * @param {string} loader
   * @param {string} subpath
   */
  const emit = (node, chain, access, loader, subpath) => {
    const start = node.getStart(sf);
    // '.' is the value the load gives itself.
    const symbolPath = chain.join('.') || '.';
    const key = start + ':' + symbolPath + ':' + access;
    if (seen.has(key)) return;
    seen.add(key);
    const lc = sf.getLineAndCharacterOfPosition(start);
    /** @type {Record<string, unknown>} */
    const u = { file, line: lc.line + 1, column: lc.character + 1, start, end: node.end, symbolPath, canonicalPath: symbolPath, access, via: 'direct', loader, checked };
    if (subpath) u.subpath = subpath;
    out.push(u);
  };
  // The member chain read from an expression, and what the code does with
  // its end. Only the levels the probe reads (two below import()'s
  // default, one below anything else) keep a call or a construct: deeper,
  // the site reads its prefix.
  /**
   * @param {import('typescript').Expression} from
   * @param {string[]} prefix
   * @param {string} loader
   * @param {string} subpath
   */
  const chainFrom = (from, prefix, loader, subpath) => {
    /** @type {import('typescript').Node} */
    let top = from;
    const chain = [...prefix];
    while (top.parent && ts.isPropertyAccessExpression(top.parent) && top.parent.expression === top) {
      top = top.parent;
      chain.push(/** @type {import('typescript').PropertyAccessExpression} */ (top).name.text);
    }
    const p = top.parent;
    let access = 'read';
    if (p && ts.isCallExpression(p) && p.expression === top) access = 'call';
    else if (p && ts.isNewExpression(p) && p.expression === top) access = 'construct';
    const limit = loader === 'import' && chain[0] === 'default' ? 2 : 1;
    if (chain.length > limit) access = 'read';
    emit(top, chain, access, loader, subpath);
  };
  /** @type {Map<string, Binding>} */
  const binds = new Map();
  /** @type {Set<import('typescript').Node>} */
  const declared = new Set();
  for (const [l, t] of hits) {
    if (t.target !== 'pkg') continue;
    const loader = l.kind === 'require' || l.kind === 'importEquals' ? 'require' : 'import';
    const subpath = t.subpath === '.' ? '' : t.subpath;
    emit(l.node, [], 'import', loader, subpath);
    const bind = (/** @type {import('typescript').Identifier} */ id, /** @type {string[]} */ prefix) => {
      binds.set(id.text, { prefix, loader, subpath });
      declared.add(id);
    };
    const n = l.node;
    if (ts.isImportDeclaration(n)) {
      const c = n.importClause;
      if (!c || c.isTypeOnly) continue;
      if (c.name) bind(c.name, ['default']);
      const b = c.namedBindings;
      if (b && ts.isNamespaceImport(b)) bind(b.name, []);
      else if (b) for (const e of b.elements) if (!e.isTypeOnly) bind(e.name, [(e.propertyName || e.name).text]);
    } else if (ts.isImportEqualsDeclaration(n)) {
      bind(n.name, []);
    } else if (l.kind === 'require' && ts.isCallExpression(n)) {
      const p = n.parent;
      if (p && ts.isVariableDeclaration(p) && p.initializer === n) {
        if (ts.isIdentifier(p.name)) bind(p.name, []);
        else if (ts.isObjectBindingPattern(p.name)) {
          for (const e of p.name.elements) {
            const prop = e.propertyName ? (ts.isIdentifier(e.propertyName) || ts.isStringLiteral(e.propertyName) ? e.propertyName.text : '') : (ts.isIdentifier(e.name) ? e.name.text : '');
            if (prop && ts.isIdentifier(e.name) && !e.dotDotDotToken) bind(e.name, [prop]);
          }
        }
      } else if (!(p && ts.isExpressionStatement(p))) {
        // require('p').a(), f(require('p')); a bare require('p'); only
        // loads.
        chainFrom(n, [], loader, subpath);
      }
    }
  }
  if (binds.size === 0) return out;
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isIdentifier(node) && !declared.has(node) && binds.has(node.text) && isReference(ts, node)) {
      const b = /** @type {Binding} */ (binds.get(node.text));
      chainFrom(node, b.prefix, b.loader, b.subpath);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * An identifier in a value position: not a member name, a declaration's
 * name or a property key.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Identifier} id
 */
function isReference(ts, id) {
  const p = id.parent;
  if (!p) return false;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p) || ts.isPropertySignature(p)) && p.name === id) return false;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isBindingElement(p)) && p.name === id) return false;
  if (ts.isBindingElement(p) && p.propertyName === id) return false;
  if (ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isExportSpecifier(p)) return false;
  if (ts.isTypeReferenceNode(p) || ts.isQualifiedName(p)) return false;
  return true;
}

module.exports = { bareUsages };

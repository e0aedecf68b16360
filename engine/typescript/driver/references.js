// @ts-check
'use strict';

// The walk of one file for Signal A: each identifier, member name, binding
// pattern, object literal key and JSX attribute that can denote a package
// symbol is resolved with the checker (or, for untyped require() values,
// matched by name against the surface) and reported with the access its
// position makes and the way it reached the package.

const fs = require('fs');
const path = require('path');
const compat = require('./compat');

/**
 * @typedef {import('./pathindex').PathSym} PathSym
 * @typedef {import('./pathindex').PathIndex} PathIndex
 * @typedef {{sym: PathSym | null, via: string, loader: string, subpath: string, written?: string, anyParents?: string[] | null}} Ref
 * @typedef {import('./loads').Load} Load
 * @typedef {import('./usages').Scan} Scan
 */

// A member name carried by at most this many symbols is resolved on any
// receiver in files that do not load the package.
const RARE_MEMBER = 8;

/**
 * The walk of one file.
 */
class FileScan {
  /**
   * @param {Scan} scan
   * @param {import('typescript').SourceFile} sf
   * @param {import('./workspace').Project} project
   * @param {import('./loads').Facts} facts
   * @param {Map<Load, {target: 'pkg' | 'barrel', subpath: string}>} hits
   * @param {boolean} tier1
   */
  constructor(scan, sf, project, facts, hits, tier1) {
    const ts = scan.ts;
    this.scan = scan;
    this.ts = ts;
    this.index = /** @type {PathIndex} */ (scan.index);
    this.sf = sf;
    this.checker = project.checker;
    this.facts = facts;
    this.hits = hits;
    this.tier1 = tier1;
    this.file = rel(scan.ws.repoRoot, sf.fileName);
    this.checked = isChecked(sf, project.options);
    /** Names that can be a binding of the package in this file. */
    this.localNames = new Set([...hits.keys()].flatMap((l) => l.names));
    /** @type {Map<import('typescript').Symbol, Ref>} locals bound by destructuring or an untyped require */
    this.localRefs = new Map();
    /** @type {Map<import('typescript').Node, Ref | null>} */
    this.memo = new Map();
    /** @type {Map<import('typescript').Node, Ref>} nested binding patterns' sources */
    this.patternRefs = new Map();
    const kinds = [...hits.keys()].filter((l) => hits.get(l)?.target === 'pkg');
    this.defaultLoader = kinds.length && kinds.every((l) => l.kind === 'require' || l.kind === 'importEquals') ? 'require' : 'import';
    const subpaths = [...new Set(kinds.map((l) => /** @type {any} */ (hits.get(l)).subpath))];
    this.defaultSubpath = subpaths.length === 1 ? subpaths[0] : '';
  }

  run() {
    const ts = this.ts;
    /** @param {import('typescript').Node} node */
    const visit = (node) => {
      if (ts.isIdentifier(node)) {
        this.onIdentifier(node);
        return;
      }
      if (ts.isStringLiteral(node) && node.parent && ts.isElementAccessExpression(node.parent) && node.parent.argumentExpression === node) {
        const ref = this.refOf(node.parent);
        if (ref && ref.sym) this.emit(node, ref, this.accessOf(node.parent));
        return;
      }
      if (ts.isObjectLiteralExpression(node)) this.onObjectLiteral(node);
      else if (ts.isObjectBindingPattern(node)) this.onBindingPattern(node);
      else if (ts.isJsxAttribute(node)) this.onJsxAttribute(node);
      else if (ts.isCallExpression(node)) this.onCall(node);
      ts.forEachChild(node, visit);
    };
    visit(this.sf);
  }

  /** @param {import('typescript').Identifier} id */
  onIdentifier(id) {
    const ts = this.ts;
    const p = id.parent;
    if (!p) return;
    if ((ts.isPropertyAccessExpression(p) && p.name === id) || (ts.isQualifiedName(p) && p.right === id)) {
      const ref = this.refOf(p);
      if (ref && ref.sym) this.emit(id, ref, this.accessOf(p));
      return;
    }
    if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) {
      if (p.name === id) this.onImportBinding(p, id, p.propertyName || id);
      return;
    }
    if (ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isImportEqualsDeclaration(p)) {
      if (p.name === id) this.onImportBinding(p, id, id);
      return;
    }
    if (ts.isBindingElement(p) || ts.isJsxAttribute(p) || ts.isJsxClosingElement(p)) return;
    if (ts.isShorthandPropertyAssignment(p) && p.name === id) {
      const sym = this.checker.getShorthandAssignmentValueSymbol(p);
      const ref = sym && this.localNames.has(id.text) ? this.symRef(sym, id.text, null, true) : null;
      if (ref && ref.sym) this.emit(id, ref, 'read');
      return;
    }
    if (/** @type {any} */ (p).name === id || /** @type {any} */ (p).label === id) return;
    // A qualifier is not a usage when the member it qualifies is one.
    if ((ts.isPropertyAccessExpression(p) && p.expression === id) || (ts.isQualifiedName(p) && p.left === id)) {
      const member = this.refOf(p);
      if (member && member.sym) return;
    }
    const ref = this.refOf(id);
    if (ref && ref.sym) this.emit(id, ref, this.accessOf(id));
  }

  /**
   * import { a as b }, import d, import * as ns, import x = require(),
   * export { a } from: the export name the consumer wrote, access import.
   * @param {import('typescript').Node} decl
   * @param {import('typescript').Identifier} id
   * @param {import('typescript').Node} at
   */
  onImportBinding(decl, id, at) {
    const ts = this.ts;
    if (!this.tier1) return;
    const sym = this.checker.getSymbolAtLocation(id);
    if (!sym) return;
    const written = ts.isImportSpecifier(decl) || ts.isExportSpecifier(decl) ? textOf(ts, decl.propertyName || decl.name) : undefined;
    const ref = this.symRef(sym, written, null, true);
    if (!ref || !ref.sym) return;
    const local = ts.isExportSpecifier(decl) && !decl.parent.parent.moduleSpecifier;
    this.emit(at, ref, local ? 'read' : 'import');
  }

  /**
   * The package symbol an expression or name denotes, memoized per node.
   * @param {import('typescript').Node} node
   * @returns {Ref | null}
   */
  refOf(node) {
    const ts = this.ts;
    if (this.memo.has(node)) return /** @type {Ref | null} */ (this.memo.get(node));
    this.memo.set(node, null);
    /** @type {Ref | null} */
    let r = null;
    if (ts.isIdentifier(node)) r = this.identRef(node);
    else if (ts.isPropertyAccessExpression(node)) r = this.memberRef(node.expression, node.name, node.name.text);
    else if (ts.isQualifiedName(node)) r = this.memberRef(node.left, node.right, node.right.text);
    else if (ts.isElementAccessExpression(node) && (ts.isStringLiteral(node.argumentExpression) || ts.isNoSubstitutionTemplateLiteral(node.argumentExpression))) {
      r = this.memberRef(node.expression, node.argumentExpression, node.argumentExpression.text);
    } else if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) r = this.refOf(node.expression);
    else if (ts.isAwaitExpression(node) && isDynamicImport(ts, skipParens(ts, node.expression))) r = this.refOf(skipParens(ts, node.expression));
    else if (ts.isCallExpression(node)) r = this.loadRef(node);
    this.memo.set(node, r);
    return r;
  }

  /** @param {import('typescript').Identifier} id */
  identRef(id) {
    const text = id.text;
    if (!this.localNames.has(text) && !this.index.globals.has(text) && !(this.isImportTypeQualifier(id) && this.index.names.has(text))) return null;
    const sym = this.checker.getSymbolAtLocation(id);
    if (!sym) return null;
    const local = this.localRefs.get(sym);
    if (local) return local;
    return this.symRef(sym, text, null, true);
  }

  /** @param {import('typescript').Identifier} id */
  isImportTypeQualifier(id) {
    const ts = this.ts;
    /** @type {import('typescript').Node} */
    let n = id;
    while (n.parent && ts.isQualifiedName(n.parent) && n.parent.left === n) n = n.parent;
    return !!n.parent && ts.isImportTypeNode(n.parent) && n.parent.qualifier === n;
  }

  /**
   * recv.name (or recv['name'], or Q.name in a type).
   * @param {import('typescript').Node} recv
   * @param {import('typescript').Node} nameNode
   * @param {string} name
   * @returns {Ref | null}
   */
  memberRef(recv, nameNode, name) {
    const ts = this.ts;
    const index = this.index;
    if (!index.names.has(name)) return null;
    if (!this.tier1 && !this.rootedAtImport(recv) && index.carrierCount(name) > RARE_MEMBER) return null;
    const recvRef = this.refOf(recv);
    if (recvRef && recvRef.anyParents) {
      const matches = this.anyChildren(recvRef.anyParents, recvRef.subpath, name);
      if (matches.length === 0) return null;
      const sym = choose(matches, name, null, false, recvRef.subpath, null);
      return { sym, via: 'require', loader: recvRef.loader, subpath: recvRef.subpath, anyParents: [sym.path] };
    }
    const sym = this.checker.getSymbolAtLocation(nameNode);
    if (sym) {
      const target = this.resolve(sym);
      if (!target || !this.scan.symInPkg(target)) return null;
      const cands = this.scan.candidates(target);
      if (cands.length === 0) {
        this.scan.unmapped++;
        return null;
      }
      const parents = recvRef && recvRef.sym ? new Set([recvRef.sym.path]) : null;
      const root = recvRef || this.rootInfo(recv);
      const pick = choose(cands, name, parents, false, root.subpath, () => this.typeParents(recv), this.declaringParents(target));
      return { sym: pick, via: root.via, loader: root.loader, subpath: root.subpath, written: name };
    }
    if (this.tier1 && !ts.isQualifiedName(recv.parent) && isAny(ts, this.checker.getTypeAtLocation(recv))) {
      const u = index.uniqueMember(name);
      if (u) return { sym: u, via: 'inferred', loader: this.defaultLoader, subpath: this.defaultSubpath };
    }
    return null;
  }

  /**
   * A checker symbol (alias or not) as a Ref: the path its target was
   * emitted under, chosen by the name written, and how it was reached.
   * @param {import('typescript').Symbol} sym
   * @param {string | undefined} written
   * @param {Set<string> | null} parents
   * @param {boolean} preferTop
   * @returns {Ref | null}
   */
  symRef(sym, written, parents, preferTop) {
    const ts = this.ts;
    const info = this.aliasInfo(sym);
    if (!info) return null;
    const { target } = info;
    if (!this.scan.symInPkg(target)) return null;
    const cands = this.scan.candidates(target);
    if (cands.length === 0) {
      // A module (import * as ns, require() of a whole package) has no
      // path of its own; it still roots what is reached through it.
      const decls = target.declarations || [];
      if (!decls.some((d) => ts.isSourceFile(d) || (ts.isModuleDeclaration(d) && ts.isStringLiteral(d.name)))) this.scan.unmapped++;
      return { sym: null, via: info.via, loader: info.loader, subpath: info.subpath };
    }
    const w = info.exportName || written;
    const pick = choose(cands, w, parents, preferTop, info.subpath, null, this.declaringParents(target));
    return { sym: pick, via: info.via, loader: info.loader, subpath: info.subpath, written: w };
  }

  /**
   * Follows an alias chain: its target, the export name written at the
   * package boundary, and via/loader/subpath from the repository side.
   * @param {import('typescript').Symbol} sym
   */
  aliasInfo(sym) {
    const ts = this.ts;
    const checker = this.checker;
    const scan = this.scan;
    const base = { via: 'direct', loader: this.defaultLoader, subpath: this.defaultSubpath, exportName: /** @type {string | undefined} */ (undefined) };
    if (!(sym.flags & ts.SymbolFlags.Alias)) return { target: sym, ...base };
    let target;
    try {
      target = checker.getAliasedSymbol(sym);
    } catch {
      return null;
    }
    if (!target || !target.declarations) return null;
    const chain = [sym];
    for (let cur = sym; chain.length < 32 && cur.flags & ts.SymbolFlags.Alias;) {
      const next = checker.getImmediateAliasedSymbol(cur);
      if (!next || chain.includes(next)) break;
      chain.push(next);
      cur = next;
    }
    const inPkgAt = chain.findIndex((s) => scan.symInPkg(s));
    let exportName;
    if (inPkgAt > 0) {
      const n = ts.symbolName(chain[inPkgAt]);
      if (n !== 'default' && n !== 'export=') exportName = n;
    }
    const repoSide = (inPkgAt > 0 ? chain.slice(0, inPkgAt) : chain).filter((s) => !scan.symInPkg(s));
    const first = (sym.declarations || [])[0];
    let loader = 'import';
    if (first && (ts.isImportEqualsDeclaration(first) || ts.isVariableDeclaration(first) || ts.isBindingElement(first))) loader = 'require';
    let subpath = '';
    let viaBarrel = repoSide.length > 1;
    for (const s of repoSide) {
      const spec = moduleSpecifierOf(ts, (s.declarations || [])[0]);
      if (spec === undefined) continue;
      const named = this.scan.subpathNamed(spec);
      if (named) subpath = named;
      else if (s === sym) viaBarrel = true;
    }
    let via = 'direct';
    if (viaBarrel) via = 'reexport';
    else if (first && ts.isImportSpecifier(first) && first.propertyName && textOf(ts, first.propertyName) !== first.name.text) via = 'alias';
    else if (first && ts.isBindingElement(first)) via = 'destructure';
    return { target, via, loader, subpath: subpath || this.defaultSubpath, exportName };
  }

  /** @param {import('typescript').Symbol} sym */
  resolve(sym) {
    if (!(sym.flags & this.ts.SymbolFlags.Alias)) return sym;
    try {
      return this.checker.getAliasedSymbol(sym);
    } catch {
      return undefined;
    }
  }

  /**
   * via, loader and subpath of what a receiver chain starts at.
   * @param {import('typescript').Node} recv
   * @returns {{via: string, loader: string, subpath: string}}
   */
  rootInfo(recv) {
    const ts = this.ts;
    const root = chainRoot(ts, recv);
    if (root !== recv) {
      const r = this.refOf(root);
      if (r) return r;
    }
    if (ts.isIdentifier(root) && this.facts.importNames.has(root.text)) {
      const sym = this.checker.getSymbolAtLocation(root);
      if (sym && sym.flags & ts.SymbolFlags.Alias) {
        const info = this.aliasInfo(sym);
        if (info && this.scan.symInPkg(info.target)) return info;
      }
    }
    return { via: 'direct', loader: this.defaultLoader, subpath: this.defaultSubpath };
  }

  /** @param {import('typescript').Node} recv */
  rootedAtImport(recv) {
    const ts = this.ts;
    const root = chainRoot(ts, recv);
    if (ts.isIdentifier(root)) return this.facts.importNames.has(root.text);
    return ts.isCallExpression(root) && (isRequireCall(ts, root) || isDynamicImport(ts, root));
  }

  /**
   * The surface paths of a receiver's type: the parents its members are
   * emitted under.
   * @param {import('typescript').Node} recv
   */
  typeParents(recv) {
    const ts = this.ts;
    /** @type {Set<string>} */
    const out = new Set();
    let t;
    try {
      t = this.checker.getTypeAtLocation(recv);
    } catch {
      return out;
    }
    const types = t.isUnionOrIntersection() ? [t, ...t.types] : [t];
    for (const type of types) {
      for (const s of [type.aliasSymbol, type.getSymbol()]) {
        for (const d of (s && s.declarations) || []) {
          let paths = this.scan.pathsAtDecl(d);
          if (paths.length === 0 && ts.isTypeLiteralNode(d) && d.parent) paths = this.scan.pathsAtDecl(d.parent);
          for (const p of paths) {
            out.add(p.path);
            out.add(p.path + '[]');
          }
        }
      }
    }
    return out;
  }

  /**
   * The paths of the container a member is declared in: where an inherited
   * member is reported when the receiver says nothing better.
   * @param {import('typescript').Symbol} target
   */
  declaringParents(target) {
    const ts = this.ts;
    /** @type {Set<string>} */
    const out = new Set();
    for (const d of target.declarations || []) {
      let c = d.parent;
      if (c && ts.isModuleBlock(c)) c = c.parent;
      if (!c || ts.isSourceFile(c)) continue;
      for (const p of this.scan.pathsAtDecl(c)) out.add(p.path);
    }
    return out;
  }

  /**
   * Children named name of any of parents ('' is the entry's top level),
   * for values the checker cannot type.
   * @param {string[]} parents
   * @param {string} subpath
   * @param {string} name
   */
  anyChildren(parents, subpath, name) {
    /** @type {PathSym[]} */
    const out = [];
    for (const par of parents) {
      let list = this.index.child(par, name);
      if (par === '') {
        const own = list.filter((s) => s.exportedFrom.includes(subpath || '.'));
        if (own.length) list = own;
      }
      for (const s of list) if (!out.includes(s)) out.push(s);
    }
    return out;
  }

  /**
   * require('pkg') / import('pkg') with a literal specifier naming the
   * package: untyped (any) loads are matched by name from the surface's
   * top level and its export = root.
   * @param {import('typescript').CallExpression} call
   * @returns {Ref | null}
   */
  loadRef(call) {
    const ts = this.ts;
    const dynamic = isDynamicImport(ts, call);
    if (!dynamic && !isRequireCall(ts, call)) return null;
    const arg = call.arguments[0];
    if (!arg || !(ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) return null;
    const load = [...this.hits.keys()].find((l) => l.node === call);
    const hit = load && this.hits.get(load);
    if (!hit || hit.target !== 'pkg') return null;
    const loader = dynamic ? 'import' : 'require';
    const type = this.checker.getTypeAtLocation(call);
    if (!dynamic && isAny(ts, type)) {
      const roots = this.index.exportEquals.get(hit.subpath) || [];
      return { sym: roots[0] || null, via: 'require', loader, subpath: hit.subpath, anyParents: ['', ...roots.map((r) => r.path)] };
    }
    return { sym: null, via: 'direct', loader, subpath: hit.subpath };
  }

  /**
   * A literal load of the package: bound to a name, a pattern or a member
   * access is followed; passed on anywhere else it is listed as unanalyzed.
   * @param {import('typescript').CallExpression} call
   */
  onCall(call) {
    const ts = this.ts;
    const ref = this.refOf(call);
    if (!ref) return;
    /** @type {import('typescript').Node} */
    let n = call;
    while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isAwaitExpression(n.parent) || ts.isNonNullExpression(n.parent))) n = n.parent;
    const p = n.parent;
    if (!p) return;
    if (ts.isVariableDeclaration(p) && p.initializer === n) {
      if (ts.isIdentifier(p.name)) {
        const local = this.checker.getSymbolAtLocation(p.name);
        if (local && ref.anyParents) this.localRefs.set(local, ref);
        this.localNames.add(p.name.text);
        if (ref.sym) this.emit(p.name, ref, 'import');
      }
      return;
    }
    if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === n) return;
    if (ts.isCallExpression(p) && p.expression === n) {
      if (ref.sym) this.emit(call, ref, 'call');
      return;
    }
    if (ts.isExpressionStatement(p)) return;
    const load = [...this.hits.keys()].find((l) => l.node === call);
    if (load && load.reexport) return;
    this.scan.addUnanalyzed(this.sf, call, ref.loader === 'import' ? 'import' : 'require', 'the loaded module is passed on, not bound to a name');
  }

  /**
   * const { a, b: c } = <package value>: each element is a usage (via
   * destructure, or require for an untyped require()), and the local it
   * binds carries the path to every later use.
   * @param {import('typescript').ObjectBindingPattern} pattern
   */
  onBindingPattern(pattern) {
    const ts = this.ts;
    const p = pattern.parent;
    /** @type {Ref | null} */
    let src = null;
    let isLoad = false;
    if (ts.isBindingElement(p)) src = this.patternRefs.get(pattern) || null;
    else if (ts.isVariableDeclaration(p) && p.initializer) {
      const init = skipParens(ts, p.initializer);
      src = this.refOf(init);
      const call = ts.isAwaitExpression(init) ? skipParens(ts, init.expression) : init;
      isLoad = ts.isCallExpression(call) && (isRequireCall(ts, call) || isDynamicImport(ts, call)) && !!src;
    }
    if (!this.tier1 && !src) return;
    /** @type {import('typescript').Type | undefined} */
    let type;
    for (const el of pattern.elements) {
      if (el.dotDotDotToken) continue;
      const propName = el.propertyName ? textOf(ts, el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : undefined;
      if (!propName || !this.index.names.has(propName)) continue;
      /** @type {Ref | null} */
      let ref = null;
      if (src && src.anyParents) {
        const matches = this.anyChildren(src.anyParents, src.subpath, propName);
        if (matches.length) {
          const sym = choose(matches, propName, null, false, src.subpath, null);
          ref = { sym, via: 'require', loader: src.loader, subpath: src.subpath, anyParents: [sym.path] };
        }
      } else {
        if (!type) type = this.checker.getTypeAtLocation(pattern);
        const prop = type && this.checker.getPropertyOfType(type, propName);
        const target = prop && this.resolve(prop);
        if (target && this.scan.symInPkg(target)) {
          const cands = this.scan.candidates(target);
          if (cands.length) {
            const parents = src && src.sym ? new Set([src.sym.path]) : null;
            const root = src || { via: 'direct', loader: this.defaultLoader, subpath: this.defaultSubpath };
            const sym = choose(cands, propName, parents, false, root.subpath, () => this.typeParents(pattern), this.declaringParents(target));
            ref = { sym, via: 'destructure', loader: root.loader, subpath: root.subpath };
          } else this.scan.unmapped++;
        }
      }
      if (!ref) continue;
      this.emit(el.propertyName || el.name, ref, isLoad ? 'import' : 'read');
      if (ts.isIdentifier(el.name)) {
        const local = this.checker.getSymbolAtLocation(el.name);
        if (local) this.localRefs.set(local, ref);
        this.localNames.add(el.name.text);
      } else {
        this.patternRefs.set(el.name, ref);
      }
    }
  }

  /**
   * Object literal members resolved through the literal's contextual type:
   * implement for a function value, write otherwise.
   * @param {import('typescript').ObjectLiteralExpression} obj
   */
  onObjectLiteral(obj) {
    const ts = this.ts;
    const members = obj.properties.filter((m) => {
      const n = m.name && propertyNameText(ts, m.name);
      return n !== undefined && this.index.names.has(n);
    });
    if (members.length === 0) return;
    if (!this.tier1 && !this.flowsIntoPackage(obj)) return;
    const ctype = this.checker.getContextualType(obj);
    if (!ctype) return;
    const types = (ctype.isUnion() ? ctype.types : [ctype]).filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)));
    for (const m of members) {
      const name = /** @type {string} */ (propertyNameText(ts, /** @type {any} */ (m.name)));
      for (const t of types) {
        const prop = this.checker.getPropertyOfType(t, name);
        if (!prop || !this.scan.symInPkg(prop)) continue;
        const cands = this.scan.candidates(prop);
        if (cands.length === 0) {
          this.scan.unmapped++;
          break;
        }
        const sym = choose(cands, name, null, false, this.defaultSubpath, () => this.typeParentsOfType(t), this.declaringParents(prop));
        const fn = ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m) ||
          (ts.isPropertyAssignment(m) && isFunctionLike(ts, skipParens(ts, m.initializer)));
        this.emit(/** @type {import('typescript').Node} */ (m.name), { sym, via: 'direct', loader: this.defaultLoader, subpath: this.defaultSubpath }, fn ? 'implement' : 'write');
        break;
      }
    }
  }

  /** @param {import('typescript').Type} t */
  typeParentsOfType(t) {
    /** @type {Set<string>} */
    const out = new Set();
    for (const s of [t.aliasSymbol, t.getSymbol()]) {
      for (const d of (s && s.declarations) || []) for (const p of this.scan.pathsAtDecl(d)) out.add(p.path);
    }
    return out;
  }

  /**
   * Whether an object literal visibly flows into the package: an argument
   * of a package callable, or a value annotated with a package type.
   * @param {import('typescript').ObjectLiteralExpression} obj
   */
  flowsIntoPackage(obj) {
    const ts = this.ts;
    /** @type {import('typescript').Node} */
    let n = obj;
    for (;;) {
      const p = n.parent;
      if (!p) return false;
      if (ts.isAsExpression(p) || compat.isSatisfies(ts, p)) {
        if (this.typeNodeResolves(/** @type {any} */ (p).type)) return true;
        n = p;
      } else if (ts.isParenthesizedExpression(p) || ts.isArrayLiteralExpression(p)) n = p;
      else if (ts.isPropertyAssignment(p) && p.initializer === n) n = p.parent;
      else break;
    }
    const p = /** @type {import('typescript').Node} */ (n.parent);
    if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression !== n) {
      const callee = this.refOf(p.expression);
      return !!(callee && callee.sym);
    }
    if (ts.isVariableDeclaration(p) && p.initializer === n && p.type) return this.typeNodeResolves(p.type);
    return false;
  }

  /** @param {import('typescript').TypeNode} type */
  typeNodeResolves(type) {
    const ts = this.ts;
    if (!ts.isTypeReferenceNode(type)) return false;
    const r = this.refOf(type.typeName);
    return !!(r && r.sym);
  }

  /**
   * <Component prop={…}>: the prop is written (implemented when a function).
   * @param {import('typescript').JsxAttribute} attr
   */
  onJsxAttribute(attr) {
    const ts = this.ts;
    if (!ts.isIdentifier(attr.name)) return;
    const name = attr.name.text;
    if (!this.index.names.has(name)) return;
    if (!this.tier1) {
      const tag = attr.parent.parent.tagName;
      const r = this.refOf(tag);
      if (!r || !r.sym) return;
    }
    // The attribute's own symbol is the JSX literal's; the prop is found
    // through the contextual type, as for an object literal.
    const ctype = this.checker.getContextualType(attr.parent);
    if (!ctype) return;
    const types = ctype.isUnion() ? ctype.types : [ctype];
    const prop = types.map((t) => this.checker.getPropertyOfType(t, name)).find((s) => s && this.scan.symInPkg(s));
    if (!prop) return;
    const cands = this.scan.candidates(prop);
    if (cands.length === 0) {
      this.scan.unmapped++;
      return;
    }
    const sym = choose(cands, name, null, false, this.defaultSubpath, null, this.declaringParents(prop));
    const init = attr.initializer;
    const fn = !!init && ts.isJsxExpression(init) && !!init.expression && isFunctionLike(ts, skipParens(ts, init.expression));
    this.emit(attr.name, { sym, via: 'direct', loader: this.defaultLoader, subpath: this.defaultSubpath }, fn ? 'implement' : 'write');
  }

  /**
   * The access a reference makes, from its position in the AST.
   * @param {import('typescript').Node} node
   */
  accessOf(node) {
    const ts = this.ts;
    let c = node;
    let p = c.parent;
    while (p && (ts.isParenthesizedExpression(p) || ts.isNonNullExpression(p))) {
      c = p;
      p = p.parent;
    }
    if (!p) return 'read';
    if (ts.isCallExpression(p) && p.expression === c) return 'call';
    if (ts.isTaggedTemplateExpression(p) && p.tag === c) return 'call';
    if (ts.isDecorator(p)) return 'call';
    if (ts.isNewExpression(p) && p.expression === c) return 'construct';
    if ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p)) && p.tagName === c) return 'call';
    if (ts.isBinaryExpression(p) && p.left === c && p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return 'write';
    if ((ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) &&
      (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken)) return 'write';
    if (ts.isExpressionWithTypeArguments(p)) return p.parent && ts.isHeritageClause(p.parent) ? 'implement' : 'read';
    let t = c;
    while (t.parent && ts.isQualifiedName(t.parent)) t = t.parent;
    if (t.parent && (ts.isTypeReferenceNode(t.parent) || ts.isTypeQueryNode(t.parent) || ts.isImportTypeNode(t.parent) || ts.isTypeNode(t.parent))) return 'typeRef';
    return 'read';
  }

  /**
   * @param {import('typescript').Node} node the span reported
   * @param {Ref} ref
   * @param {string} access
   */
  emit(node, ref, access) {
    const index = this.index;
    let sym = /** @type {PathSym} */ (ref.sym);
    let symbolPath = sym.path;
    let canonical = sym.aliasOf || sym.path;
    if (access === 'construct') {
      const ctor = index.byPath.get(sym.path + '.new()');
      if (ctor) {
        symbolPath = ctor.path;
        canonical = ctor.aliasOf || ctor.path;
      }
    } else if (access === 'typeRef' && sym.aliasOf && ref.written === sym.name) {
      // z.infer is TypeOf to the checker; the consumer wrote infer, and a
      // change to TypeOf alone does not reach them.
      let best = sym;
      for (const s of index.at(sym.file || '', sym.pos || 0)) {
        if (s.name === sym.name && s.aliasOf === sym.aliasOf && s.depth < best.depth) best = s;
      }
      canonical = best.path;
    }
    const sf = this.sf;
    const start = node.getStart(sf);
    const lc = sf.getLineAndCharacterOfPosition(start);
    const key = this.file + ':' + start + ':' + symbolPath + ':' + access;
    if (this.scan.seen.has(key)) return;
    this.scan.seen.add(key);
    /** @type {Record<string, unknown>} */
    const u = {
      file: this.file,
      line: lc.line + 1,
      column: lc.character + 1,
      start,
      end: node.end,
      symbolPath,
      canonicalPath: canonical,
      access,
      via: ref.via,
      loader: ref.loader,
      checked: this.checked,
    };
    if (ref.subpath) u.subpath = ref.subpath;
    this.scan.usages.push(u);
  }
}

/**
 * Picks one path among a declaration's: the name written first, then the
 * receiver's paths as parents, then the declaring container, then the
 * entry point, then the canonical order of the surface.
 * @param {PathSym[]} cands
 * @param {string | undefined} written
 * @param {Set<string> | null} parents
 * @param {boolean} preferTop
 * @param {string} subpath
 * @param {(() => Set<string>) | null} lazyParents
 * @param {Set<string>} [declaring]
 * @returns {PathSym}
 */
function choose(cands, written, parents, preferTop, subpath, lazyParents, declaring) {
  let c = cands;
  /** @param {(s: PathSym) => boolean} pred */
  const narrow = (pred) => {
    if (c.length < 2) return;
    const n = c.filter(pred);
    if (n.length) c = n;
  };
  if (written) narrow((s) => s.name === written);
  if (parents && parents.size) narrow((s) => parents.has(s.parent));
  if (c.length > 1 && lazyParents) {
    const tp = lazyParents();
    if (tp.size) narrow((s) => tp.has(s.parent));
  }
  if (declaring && declaring.size) narrow((s) => declaring.has(s.parent));
  if (preferTop) narrow((s) => s.depth === 0);
  if (subpath) narrow((s) => s.exportedFrom.includes(subpath));
  return [...c].sort((a, b) => (a.aliasOf === '' ? 0 : 1) - (b.aliasOf === '' ? 0 : 1) || a.depth - b.depth || a.path.length - b.path.length || cmp(a.path, b.path))[0];
}

/**
 * Whether the repository type-checks a file: TypeScript unless
 * @ts-nocheck; JavaScript under checkJs or @ts-check.
 * @param {import('typescript').SourceFile} sf
 * @param {import('typescript').CompilerOptions} options
 */
function isChecked(sf, options) {
  const d = /** @type {any} */ (sf).checkJsDirective;
  if (d && !d.enabled) return false;
  if (!/\.(js|jsx|mjs|cjs)$/.test(sf.fileName)) return true;
  return d ? !!d.enabled : !!options.checkJs;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node | undefined} decl
 * @returns {string | undefined}
 */
function moduleSpecifierOf(ts, decl) {
  /** @type {import('typescript').Node | undefined} */
  let n = decl;
  for (let i = 0; n && i < 8; i++, n = n.parent) {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) return n.moduleSpecifier.text;
    if (ts.isImportEqualsDeclaration(n)) {
      const r = n.moduleReference;
      return ts.isExternalModuleReference(r) && ts.isStringLiteral(r.expression) ? r.expression.text : undefined;
    }
    if (ts.isVariableDeclaration(n)) {
      const init = n.initializer && skipParens(ts, n.initializer);
      if (init && ts.isCallExpression(init) && isRequireCall(ts, init)) {
        const a = init.arguments[0];
        return a && (ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a)) ? a.text : undefined;
      }
      return undefined;
    }
  }
  return undefined;
}

/**
 * The identifier (or other expression) a receiver chain starts at.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} n
 */
function chainRoot(ts, n) {
  for (let i = 0; i < 256; i++) {
    if (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n) || ts.isNonNullExpression(n) || ts.isParenthesizedExpression(n) ||
      ts.isAsExpression(n) || ts.isTypeAssertionExpression(n) || ts.isAwaitExpression(n)) n = n.expression;
    else if (ts.isCallExpression(n) && !isRequireCall(ts, n) && !isDynamicImport(ts, n)) n = n.expression;
    else if (ts.isQualifiedName(n)) n = n.left;
    else break;
  }
  return n;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} n */
function isRequireCall(ts, n) {
  return ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'require' && n.arguments.length >= 1;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} n */
function isDynamicImport(ts, n) {
  return ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Expression} e */
function skipParens(ts, e) {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return e;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} n */
function isFunctionLike(ts, n) {
  return ts.isArrowFunction(n) || ts.isFunctionExpression(n);
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Type} t */
function isAny(ts, t) {
  return !!t && !!(t.flags & ts.TypeFlags.Any);
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} n */
function textOf(ts, n) {
  return ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : n.getText();
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').PropertyName} n
 */
function propertyNameText(ts, n) {
  if (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  return undefined;
}

/** @param {string} name */
function isSignature(name) {
  return name === '()' || name === 'new()' || name === '' || name.startsWith('[');
}

/** @param {string} root @param {string} file */
function rel(root, file) {
  return path.relative(root, file).split(path.sep).join('/');
}

/** @param {string} p */
function realOr(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}



/** @param {string} a @param {string} b */
function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

module.exports = { FileScan, rel, realOr, cmp, isSignature, isChecked };

// @ts-check
'use strict';

// Declarations to symbols. walkDeclaration turns one declaration (a checker
// symbol, merged or not) into the nodes of its subtree: itself at suffix ""
// and every member below it at suffixes like ".Ns", "#member", "#prop[]#x".
// Subtrees are memoized per declaration, so a namespace re-exported under
// several names is walked once and instantiated under each path.

const path = require('path');
const { segment, replacementOf } = require('./serialize');
const jsdoc = require('./jsdoc');
const compat = require('./compat');

/**
 * @typedef {object} Node
 * @property {string} suffix path below the declaration ("" for itself)
 * @property {string} kind
 * @property {string} signature
 * @property {boolean} [optional]
 * @property {{message: string, replacement?: string}} [deprecated]
 * @property {string} [visibility]
 * @property {string} [file]
 * @property {number} [pos]
 * @property {string} key identity of the declaration, for aliasOf
 * @property {import('typescript').Symbol} [sym] for type questions (compare)
 * @property {'value' | 'declared' | 'index'} [typeRole]
 * @property {import('typescript').Type} [indexType]
 */

const KIND_RANK = ['class', 'function', 'variable', 'interface', 'enum', 'type', 'namespace', 'module'];

class Walker {
  /**
   * @param {typeof import('typescript')} ts
   * @param {import('typescript').TypeChecker} checker
   * @param {string[]} pkgDirs real paths whose files count as the package's
   * @param {import('./serialize').Printer} printer
   */
  constructor(ts, checker, pkgDirs, printer) {
    this.ts = ts;
    this.checker = checker;
    this.pkgDirs = pkgDirs.map((d) => d + path.sep);
    this.printer = printer;
    /** @type {Map<import('typescript').Symbol, number>} */
    this.ids = new Map();
    /** @type {Map<import('typescript').Symbol, Node[]>} */
    this.memo = new Map();
    /** @type {Set<import('typescript').Symbol>} */
    this.stack = new Set();
    /** @type {Map<string, boolean>} */
    this.fileInPackage = new Map();
  }

  /** @param {import('typescript').Symbol} sym */
  id(sym) {
    let n = this.ids.get(sym);
    if (n === undefined) {
      n = this.ids.size + 1;
      this.ids.set(sym, n);
    }
    return n;
  }

  /** @param {import('typescript').Node} decl */
  inPackage(decl) {
    const f = decl.getSourceFile().fileName;
    let v = this.fileInPackage.get(f);
    if (v === undefined) {
      const abs = path.resolve(f);
      v = this.pkgDirs.some((d) => abs.startsWith(d));
      this.fileInPackage.set(f, v);
    }
    return v;
  }

  /** @param {import('typescript').Node} decl */
  location(decl) {
    const ts = this.ts;
    const sf = decl.getSourceFile();
    const abs = path.resolve(sf.fileName);
    const base = this.pkgDirs.find((d) => abs.startsWith(d));
    const file = base ? abs.slice(base.length).split(path.sep).join('/') : undefined;
    if (ts.isSourceFile(decl)) return { file, pos: 0 };
    const named = /** @type {any} */ (decl).name;
    const pos = named && typeof named.getStart === 'function' ? named.getStart(sf) : decl.getStart(sf);
    return { file, pos };
  }

  /**
   * A symbol's target after following aliases (import/export specifiers,
   * export =, import X = ).
   * @param {import('typescript').Symbol} sym
   */
  resolve(sym) {
    const t = sym.flags & this.ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(sym) : sym;
    // A module augmentation merges into a copy of what it augments (React
    // plus canary.d.ts's use, useOptimistic…), which is what consumers see;
    // the alias of an export = still points at the original.
    const merged = /** @type {{getMergedSymbol?: (s: import('typescript').Symbol) => import('typescript').Symbol}} */ (/** @type {unknown} */ (this.checker));
    return typeof merged.getMergedSymbol === 'function' ? merged.getMergedSymbol(t) : t;
  }

  /**
   * Whether a type alias only names an interface or class of the package
   * (stripe 18+: export type StripeConfig = import('./lib.js').StripeConfig):
   * consumers reach the same members through it as through the interface.
   * @param {import('typescript').TypeAliasDeclaration} alias
   */
  namesOwnObjectType(alias) {
    const ts = this.ts;
    if (alias.typeParameters || !(ts.isTypeReferenceNode(alias.type) || ts.isImportTypeNode(alias.type))) return false;
    const target = this.checker.getTypeFromTypeNode(alias.type).getSymbol();
    if (!target || !(target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class))) return false;
    return (target.declarations || []).some((d) => this.inPackage(d));
  }

  /**
   * Where an unresolvable alias was imported from, for its signature.
   * @param {import('typescript').Symbol} sym
   */
  unresolvedSource(sym) {
    const ts = this.ts;
    let cur = sym;
    for (let i = 0; i < 20 && cur; i++) {
      for (const d of cur.declarations || []) {
        let n = /** @type {import('typescript').Node | undefined} */ (d);
        while (n && !ts.isExportDeclaration(n) && !ts.isImportDeclaration(n) && !ts.isSourceFile(n)) n = n.parent;
        const spec = n && (ts.isExportDeclaration(n) || ts.isImportDeclaration(n)) ? n.moduleSpecifier : undefined;
        if (spec && ts.isStringLiteral(spec) && !spec.text.startsWith('.')) return spec.text;
      }
      const next = this.checker.getImmediateAliasedSymbol(cur);
      if (!next || next === cur) break;
      cur = next;
    }
    return '';
  }

  /**
   * A member's name as consumers write it. Members keyed by a unique symbol
   * ([BRAND], [Symbol.iterator]) get compiler-internal names with a counter
   * ("__@BRAND@130") that changes between versions; the written key is
   * stable.
   * @param {import('typescript').Symbol} prop
   */
  memberName(prop) {
    const ts = this.ts;
    const name = ts.symbolName(prop);
    if (!name.startsWith('__@')) return name;
    for (const d of prop.declarations || []) {
      const n = /** @type {any} */ (d).name;
      if (n && ts.isComputedPropertyName(n)) {
        return '[' + n.expression.getText(d.getSourceFile()).replace(/\s+/g, '') + ']';
      }
    }
    return name.replace(/@\d+$/, '');
  }

  /** @param {import('typescript').Symbol} sym */
  ownDecls(sym) {
    const all = sym.declarations || [];
    const own = all.filter((d) => this.inPackage(d));
    return own.length > 0 ? own : all;
  }

  /** @param {import('typescript').Declaration} d */
  declKind(d) {
    const ts = this.ts;
    if (ts.isClassDeclaration(d) || ts.isClassExpression(d)) return 'class';
    if (ts.isFunctionDeclaration(d)) return 'function';
    if (ts.isVariableDeclaration(d) || ts.isBindingElement(d)) return 'variable';
    if (ts.isInterfaceDeclaration(d)) return 'interface';
    if (ts.isEnumDeclaration(d)) return 'enum';
    if (ts.isTypeAliasDeclaration(d)) return 'type';
    if (ts.isModuleDeclaration(d)) return ts.isStringLiteral(d.name) ? 'module' : 'namespace';
    if (ts.isSourceFile(d)) return 'namespace';
    return 'variable';
  }

  /** @param {readonly import('typescript').Declaration[]} decls */
  kindOf(decls) {
    let best = KIND_RANK.length;
    for (const d of decls) best = Math.min(best, KIND_RANK.indexOf(this.declKind(d)));
    return best < KIND_RANK.length ? KIND_RANK[best] : 'variable';
  }

  /** @param {import('typescript').Node} d */
  isInternal(d) {
    return jsdoc.isInternal(this.ts, d);
  }

  /**
   * The @deprecated tag of a declaration. Overloads count as deprecated only
   * when every overload is: one deprecated overload among live ones is not
   * the symbol going away.
   * @param {readonly import('typescript').Node[]} decls
   * @param {boolean} callable
   */
  deprecation(decls, callable) {
    /** @type {string | undefined} */
    let first;
    let all = decls.length > 0;
    for (const d of decls) {
      const text = jsdoc.deprecatedText(this.ts, d);
      if (text !== undefined && first === undefined) first = text;
      if (text === undefined) all = false;
    }
    if (first === undefined || (callable && !all)) return undefined;
    const message = first;
    const replacement = replacementOf(message);
    return replacement ? { message, replacement } : { message };
  }

  /**
   * The subtree of one declaration.
   * @param {import('typescript').Symbol} sym a resolved (non-alias) symbol
   * @returns {Node[]}
   */
  walkDeclaration(sym) {
    const cached = this.memo.get(sym);
    if (cached) return cached;
    const ts = this.ts;
    const F = ts.SymbolFlags;
    const decls = this.ownDecls(sym);
    const kind = this.kindOf(decls);
    const kindDecls = decls.filter((d) => this.declKind(d) === kind);
    const key = 'S' + this.id(sym);
    /** @type {Node} */
    const root = {
      suffix: '',
      kind,
      signature: '',
      key,
      sym,
      typeRole: kind === 'class' || kind === 'interface' || kind === 'type' ? 'declared' : kind === 'namespace' || kind === 'module' ? undefined : 'value',
      ...this.location(kindDecls[0] || decls[0] || sym.valueDeclaration),
    };
    if (!decls.length) root.file = undefined;
    const dep = this.deprecation(kindDecls, kind === 'function');
    if (dep) root.deprecated = dep;
    const internal = decls.some((d) => this.isInternal(d));
    if (internal) root.visibility = 'internal';
    /** @type {Node[]} */
    const nodes = [root];
    if (this.stack.has(sym)) {
      // A namespace reaching itself: the member is listed, its subtree once.
      root.signature = this.declarationSignature(sym, kind, kindDecls, decls, null);
      return nodes;
    }
    this.stack.add(sym);
    /** @type {{literal: import('typescript').TypeLiteralNode, suffix: string} | null} */
    let expandedVar = null;
    if (kind === 'variable' && !(sym.flags & F.Class)) {
      const v = kindDecls.find((d) => ts.isVariableDeclaration(d));
      if (v && /** @type {import('typescript').VariableDeclaration} */ (v).type) {
        expandedVar = this.literalOf(/** @type {import('typescript').VariableDeclaration} */ (v).type);
      }
    }
    root.signature = this.declarationSignature(sym, kind, kindDecls, decls, expandedVar);

    const inherit = (/** @type {Node[]} */ children) => {
      for (const c of children) {
        if (internal && c.visibility !== 'internal') nodes.push({ ...c, visibility: 'internal' });
        else nodes.push(c);
      }
    };

    // Static side: namespace members, enum members, class statics, constructors.
    if (sym.flags & (F.Module | F.Enum) || decls.some((d) => ts.isSourceFile(d))) {
      inherit(this.namespaceMembers(sym));
    }
    if (sym.flags & F.Class) {
      inherit(this.classStatics(sym, key));
      inherit(this.constructors(sym, key));
    }
    // Instance side: members of the declared type, inherited ones included.
    if (sym.flags & (F.Class | F.Interface)) {
      inherit(this.objectMembers(this.checker.getDeclaredTypeOfSymbol(sym), '', key, !!(sym.flags & F.Interface) && !(sym.flags & F.Class)));
    } else if (kind === 'type') {
      const alias = /** @type {import('typescript').TypeAliasDeclaration | undefined} */ (kindDecls.find((d) => ts.isTypeAliasDeclaration(d)));
      if (alias && (ts.isTypeLiteralNode(alias.type) || this.namesOwnObjectType(alias))) {
        inherit(this.objectMembers(this.checker.getDeclaredTypeOfSymbol(sym), '', key, true));
      }
    }
    if (kind === 'variable' && !(sym.flags & F.Class) && !expandedVar) {
      const ctor = this.namedConstructor(sym, kindDecls, key);
      if (ctor) inherit([ctor]);
    }
    if (expandedVar) {
      // A value paired with an interface of its name is the static side
      // (Foo.create() next to foo.bar): its literal's members join with ".".
      const join = sym.flags & F.Interface ? '.' : '#';
      inherit(this.objectMembers(this.checker.getTypeFromTypeNode(expandedVar.literal), expandedVar.suffix, key + expandedVar.suffix, true, join));
    }
    this.stack.delete(sym);
    this.memo.set(sym, nodes);
    return nodes;
  }

  /**
   * Members reachable with ".": namespace exports (aliases followed) and enum
   * members. Class statics are left to classStatics, which also sees the
   * inherited ones.
   * @param {import('typescript').Symbol} sym
   * @returns {Node[]}
   */
  namespaceMembers(sym) {
    const ts = this.ts;
    const F = ts.SymbolFlags;
    /** @type {Node[]} */
    const out = [];
    /** @type {import('typescript').Symbol[]} */
    let exports;
    if (sym.flags & (F.ValueModule | F.NamespaceModule)) {
      exports = this.checker.getExportsOfModule(sym);
    } else {
      exports = [];
      if (sym.exports) sym.exports.forEach((s) => exports.push(s));
    }
    for (const exp of exports) {
      const name = ts.symbolName(exp);
      if (name === 'prototype' || name === 'export=') continue;
      const decls = exp.declarations || [];
      if (decls.length > 0 && decls.every((d) => d.parent && ts.isClassLike(d.parent))) continue;
      if (exp.flags & F.EnumMember) {
        out.push(...this.enumMember(exp, '.' + segment(name), 'S' + this.id(sym) + '.' + name));
        continue;
      }
      const target = this.resolve(exp);
      if (!target.declarations || target.declarations.length === 0) {
        out.push(this.unresolvedNode(exp, '.' + segment(name)));
        continue;
      }
      for (const n of this.walkDeclaration(target)) {
        out.push({ ...n, suffix: '.' + segment(name) + n.suffix });
      }
    }
    return out;
  }

  /**
   * @param {import('typescript').Symbol} exp
   * @param {string} suffix
   * @returns {Node}
   */
  unresolvedNode(exp, suffix) {
    const from = this.unresolvedSource(exp);
    const decl = (exp.declarations || [])[0];
    return {
      suffix,
      kind: 'variable',
      signature: from ? `unresolved ${JSON.stringify(from)}` : 'unresolved',
      key: 'U' + this.id(exp),
      ...(decl ? this.location(decl) : {}),
    };
  }

  /**
   * @param {import('typescript').Symbol} member
   * @param {string} suffix
   * @param {string} key
   * @returns {Node[]}
   */
  enumMember(member, suffix, key) {
    const ts = this.ts;
    const decl = (member.declarations || []).find((d) => ts.isEnumMember(d));
    if (!decl) return [];
    const value = this.checker.getConstantValue(/** @type {import('typescript').EnumMember} */ (decl));
    /** @type {Node} */
    const node = {
      suffix,
      kind: 'enum-member',
      signature: value === undefined ? '' : typeof value === 'number' ? String(value) : JSON.stringify(value),
      key,
      sym: member,
      typeRole: 'value',
      ...this.location(decl),
    };
    const dep = this.deprecation([decl], false);
    if (dep) node.deprecated = dep;
    if (this.isInternal(decl)) node.visibility = 'internal';
    return [node];
  }

  /**
   * Static members of a class, inherited ones included (emitted under this
   * class's path with the base's declaration).
   * @param {import('typescript').Symbol} sym
   * @param {string} key
   */
  classStatics(sym, key) {
    const ts = this.ts;
    /** @type {Node[]} */
    const out = [];
    const staticType = compat.typeOfSymbol(this.ts, this.checker, sym);
    for (const prop of this.checker.getPropertiesOfType(staticType)) {
      const name = this.memberName(prop);
      if (name === 'prototype') continue;
      const decls = (prop.declarations || []).filter((d) => d.parent && ts.isClassLike(d.parent));
      if (decls.length === 0) continue;
      out.push(...this.memberNodes(prop, '.' + segment(name), key + '.' + name));
    }
    return out;
  }

  /**
   * X.new(): the declared constructors, else the inherited ones, else the
   * implicit one.
   * @param {import('typescript').Symbol} sym
   * @param {string} key
   * @returns {Node[]}
   */
  constructors(sym, key) {
    const ts = this.ts;
    const classDecls = /** @type {import('typescript').ClassLikeDeclaration[]} */ ((sym.declarations || []).filter((d) => ts.isClassLike(d)));
    /** @type {import('typescript').SignatureDeclaration[]} */
    let decls = classDecls.flatMap((c) => c.members.filter(ts.isConstructorDeclaration));
    let text = '';
    if (decls.length === 0) {
      const sigs = this.checker.getSignaturesOfType(compat.typeOfSymbol(this.ts, this.checker, sym), ts.SignatureKind.Construct);
      decls = /** @type {import('typescript').SignatureDeclaration[]} */ (sigs.map((s) => s.declaration).filter((d) => d && this.inPackage(d)));
      if (decls.length === 0) {
        if (sigs.length === 0) return [];
        text = sigs.map((s) => '(' + s.parameters.map((p) => `${ts.symbolName(p)}: ${this.checker.typeToString(compat.typeOfSymbol(this.ts, this.checker, p))}`).join(', ') + ')').join('; ');
      }
    }
    let visibility;
    if (decls.length > 0) {
      const flags = ts.getCombinedModifierFlags(decls[0]);
      if (flags & ts.ModifierFlags.Private) return [];
      if (flags & ts.ModifierFlags.Protected) visibility = 'protected';
      text = (visibility ? 'protected ' : '') + decls.map((d) => this.callable(d)).join('; ');
    }
    /** @type {Node} */
    const node = {
      suffix: '.new()',
      kind: 'constructor',
      signature: text,
      key: key + '.new()',
      ...this.location(decls[0] || classDecls[0]),
    };
    if (visibility) node.visibility = visibility;
    if (decls.length > 0) {
      const dep = this.deprecation(decls, true);
      if (dep) node.deprecated = dep;
      if (decls.some((d) => this.isInternal(d))) node.visibility = 'internal';
    }
    return [node];
  }

  /**
   * X.new() of a variable whose declared type is a named type with construct
   * signatures (zod 4's `const ZodString: $constructor<ZodString>`): named
   * types are never expanded, but `new X()` is written against the variable,
   * and a class that became such a value must not read as losing its
   * constructor. A generic type's signatures print instantiated.
   * @param {import('typescript').Symbol} sym
   * @param {import('typescript').Declaration[]} kindDecls
   * @param {string} key
   * @returns {Node | null}
   */
  namedConstructor(sym, kindDecls, key) {
    const ts = this.ts;
    const v = /** @type {import('typescript').VariableDeclaration | undefined} */ (kindDecls.find((d) => ts.isVariableDeclaration(d)));
    if (!v || !v.type || !ts.isTypeReferenceNode(v.type)) return null;
    const news = this.checker.getSignaturesOfType(compat.typeOfSymbol(this.ts, this.checker, sym), ts.SignatureKind.Construct);
    if (news.length === 0) return null;
    if (!v.type.typeArguments || v.type.typeArguments.length === 0) {
      return this.signatureNode(news, '.new()', key + '.new()', 'constructor');
    }
    const decls = news.map((s) => s.declaration).filter((d) => d && this.inPackage(d));
    if (decls.length === 0) return null;
    const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
    const text = news.map((sig) => {
      const tps = sig.typeParameters && sig.typeParameters.length ? '<' + sig.typeParameters.map((t) => this.checker.typeToString(t, undefined, flags)).join(', ') + '>' : '';
      const params = sig.parameters.map((p) => {
        const d = /** @type {import('typescript').ParameterDeclaration | undefined} */ ((p.declarations || [])[0]);
        const rest = d && d.dotDotDotToken ? '...' : '';
        const opt = d && (d.questionToken || d.initializer) ? '?' : '';
        return `${rest}${ts.symbolName(p)}${opt}: ${this.checker.typeToString(compat.typeOfSymbol(this.ts, this.checker, p), undefined, flags)}`;
      });
      return `${tps}(${params.join(', ')}): ${this.checker.typeToString(this.checker.getReturnTypeOfSignature(sig), undefined, flags)}`;
    }).join('; ');
    /** @type {Node} */
    const node = {
      suffix: '.new()',
      kind: 'constructor',
      signature: text,
      key: key + '.new()',
      ...this.location(/** @type {import('typescript').Node} */ (decls[0])),
    };
    const dep = this.deprecation(/** @type {import('typescript').Node[]} */ (decls), true);
    if (dep) node.deprecated = dep;
    return node;
  }

  /**
   * Instance-side members of an object type: properties and methods
   * (inherited ones declared in the package included), call signatures,
   * construct signatures and index signatures.
   * @param {import('typescript').Type} type
   * @param {string} prefix
   * @param {string} key
   * @param {boolean} withConstruct construct signatures are the type's own (interfaces, literals)
   * @param {'#' | '.'} [join] how properties join their owner
   * @returns {Node[]}
   */
  objectMembers(type, prefix, key, withConstruct, join = '#') {
    const ts = this.ts;
    /** @type {Node[]} */
    const out = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const name = this.memberName(prop);
      out.push(...this.memberNodes(prop, prefix + join + segment(name), key + join + name));
    }
    const calls = this.checker.getSignaturesOfType(type, ts.SignatureKind.Call);
    const callNode = this.signatureNode(calls, prefix + '#()', key + '#()', 'call');
    if (callNode) out.push(callNode);
    if (withConstruct) {
      const news = this.checker.getSignaturesOfType(type, ts.SignatureKind.Construct);
      const newNode = this.signatureNode(news, prefix + '.new()', key + '.new()', 'constructor');
      if (newNode) out.push(newNode);
    }
    for (const info of this.checker.getIndexInfosOfType(type)) {
      const decl = info.declaration;
      if (!decl || !this.inPackage(decl)) continue;
      const keyText = this.checker.typeToString(info.keyType);
      const valueText = decl.type ? this.printer.print(decl.type) : this.checker.typeToString(info.type);
      /** @type {Node} */
      const node = {
        suffix: prefix + '#[' + keyText + ']',
        kind: 'index',
        signature: (info.isReadonly ? 'readonly ' : '') + valueText,
        key: key + '#[' + keyText + ']',
        typeRole: 'index',
        indexType: info.type,
        ...this.location(decl),
      };
      if (this.isInternal(decl)) node.visibility = 'internal';
      out.push(node);
    }
    return out;
  }

  /**
   * @param {readonly import('typescript').Signature[]} sigs
   * @param {string} suffix
   * @param {string} key
   * @param {string} kind
   * @returns {Node | null}
   */
  signatureNode(sigs, suffix, key, kind) {
    const decls = /** @type {import('typescript').SignatureDeclaration[]} */ (sigs.map((s) => s.declaration).filter((d) => d && this.inPackage(d)));
    if (decls.length === 0) return null;
    /** @type {Node} */
    const node = {
      suffix,
      kind,
      signature: decls.map((d) => this.callable(d)).join('; '),
      key,
      ...this.location(decls[0]),
    };
    const dep = this.deprecation(decls, true);
    if (dep) node.deprecated = dep;
    if (decls.some((d) => this.isInternal(d))) node.visibility = 'internal';
    return node;
  }

  /**
   * A property or method, with the anonymous object type it carries expanded.
   * @param {import('typescript').Symbol} prop
   * @param {string} suffix
   * @param {string} key
   * @returns {Node[]}
   */
  memberNodes(prop, suffix, key) {
    const ts = this.ts;
    const name = ts.symbolName(prop);
    if (name.startsWith('#') || name.startsWith('__#')) return [];
    const decls = (prop.declarations || []).filter((d) => this.inPackage(d));
    if (decls.length === 0) return [];
    const flags = ts.getCombinedModifierFlags(/** @type {import('typescript').Declaration} */ (decls[0]));
    if (flags & ts.ModifierFlags.Private) return [];
    const isProtected = !!(flags & ts.ModifierFlags.Protected);
    const isAbstract = !!(flags & ts.ModifierFlags.Abstract);
    const methods = decls.filter((d) => ts.isMethodSignature(d) || ts.isMethodDeclaration(d));
    const kind = methods.length > 0 ? 'method' : 'property';
    const prefix = (isProtected ? 'protected ' : '') + (isAbstract ? 'abstract ' : '');
    /** @type {Node[]} */
    let children = [];
    let signature;
    if (kind === 'method') {
      signature = prefix + methods.map((d) => this.callable(/** @type {import('typescript').SignatureDeclaration} */ (d))).join('; ');
    } else {
      const getter = /** @type {import('typescript').GetAccessorDeclaration | undefined} */ (decls.find(ts.isGetAccessorDeclaration));
      const setter = /** @type {import('typescript').SetAccessorDeclaration | undefined} */ (decls.find(ts.isSetAccessorDeclaration));
      /** @type {import('typescript').TypeNode | undefined} */
      let typeNode;
      let readonly;
      if (getter || setter) {
        typeNode = getter ? getter.type : setter && setter.parameters[0] && setter.parameters[0].type;
        readonly = !setter;
      } else {
        typeNode = /** @type {any} */ (decls[0]).type;
        readonly = !!(flags & ts.ModifierFlags.Readonly);
      }
      const expanded = typeNode ? this.literalOf(typeNode) : null;
      const text = typeNode
        ? this.printer.print(typeNode, expanded ? expanded.literal : undefined)
        : this.checker.typeToString(compat.typeOfSymbol(this.ts, this.checker, prop));
      signature = prefix + (readonly ? 'readonly ' : '') + text;
      if (expanded) {
        children = this.objectMembers(this.checker.getTypeFromTypeNode(expanded.literal), suffix + expanded.suffix, key + expanded.suffix, true);
      }
    }
    /** @type {Node} */
    const node = { suffix, kind, signature, key, sym: prop, typeRole: 'value', ...this.location(decls[0]) };
    if (prop.flags & ts.SymbolFlags.Optional) node.optional = true;
    const dep = this.deprecation(kind === 'method' ? methods : decls, kind === 'method');
    if (dep) node.deprecated = dep;
    const internal = decls.some((d) => this.isInternal(d));
    if (internal) node.visibility = 'internal';
    else if (isProtected) node.visibility = 'protected';
    /** @type {Node[]} */
    const out = [node];
    for (const c of children) {
      if (node.visibility && !c.visibility) out.push({ ...c, visibility: node.visibility });
      else if (internal && c.visibility !== 'internal') out.push({ ...c, visibility: 'internal' });
      else out.push(c);
    }
    return out;
  }

  /**
   * The anonymous object type a type node carries directly, through arrays
   * and `| null | undefined`, with the path suffix it is expanded under.
   * @param {import('typescript').TypeNode} node
   * @returns {{literal: import('typescript').TypeLiteralNode, suffix: string} | null}
   */
  literalOf(node) {
    const ts = this.ts;
    let suffix = '';
    let n = node;
    for (let i = 0; i < 8; i++) {
      if (ts.isParenthesizedTypeNode(n)) n = n.type;
      else if (ts.isTypeOperatorNode(n) && n.operator === ts.SyntaxKind.ReadonlyKeyword) n = n.type;
      else if (ts.isArrayTypeNode(n)) {
        suffix += '[]';
        n = n.elementType;
      } else if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName) &&
        (n.typeName.text === 'Array' || n.typeName.text === 'ReadonlyArray') && n.typeArguments && n.typeArguments.length === 1) {
        suffix += '[]';
        n = n.typeArguments[0];
      } else if (ts.isUnionTypeNode(n)) {
        const rest = n.types.filter((t) => !(t.kind === ts.SyntaxKind.UndefinedKeyword ||
          (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword)));
        if (rest.length !== 1) return null;
        n = rest[0];
      } else break;
    }
    return ts.isTypeLiteralNode(n) ? { literal: n, suffix } : null;
  }

  /**
   * (params): Return, with type parameters; never the name.
   * @param {import('typescript').SignatureDeclaration} d
   */
  callable(d) {
    const ts = this.ts;
    const p = this.printer;
    const tps = d.typeParameters && d.typeParameters.length ? '<' + d.typeParameters.map((t) => p.print(t)).join(', ') + '>' : '';
    const params = '(' + d.parameters.map((x) => p.print(x)).join(', ') + ')';
    let ret = '';
    if (d.type) ret = ': ' + p.print(d.type);
    else if (!ts.isConstructorDeclaration(d)) {
      const sig = this.checker.getSignatureFromDeclaration(d);
      ret = ': ' + (sig ? this.checker.typeToString(this.checker.getReturnTypeOfSignature(sig)) : 'any');
    }
    return tps + params + ret;
  }

  /**
   * @param {readonly import('typescript').TypeParameterDeclaration[] | undefined} tps
   */
  typeParams(tps) {
    return tps && tps.length ? '<' + tps.map((t) => this.printer.print(t)).join(', ') + '>' : '';
  }

  /**
   * A container's header or a leaf's type, per the signature forms.
   * @param {import('typescript').Symbol} sym
   * @param {string} kind
   * @param {import('typescript').Declaration[]} kindDecls
   * @param {import('typescript').Declaration[]} decls
   * @param {{literal: import('typescript').TypeLiteralNode, suffix: string} | null} expanded
   */
  declarationSignature(sym, kind, kindDecls, decls, expanded) {
    const ts = this.ts;
    const p = this.printer;
    const d = /** @type {any} */ (kindDecls[0]);
    switch (kind) {
      case 'class': {
        const abstract = ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Abstract ? 'abstract ' : '';
        const heritage = (d.heritageClauses || []).map((/** @type {import('typescript').HeritageClause} */ h) =>
          (h.token === ts.SyntaxKind.ExtendsKeyword ? 'extends ' : 'implements ') + h.types.map((t) => p.print(t)).join(', '));
        return [abstract + 'class' + this.typeParams(d.typeParameters), ...heritage].join(' ');
      }
      case 'function':
        return kindDecls.filter((x) => !(/** @type {any} */ (x).body)).map((x) => this.callable(/** @type {any} */ (x))).join('; ');
      case 'variable': {
        if (!d) return 'const any';
        const flags = ts.getCombinedNodeFlags(d);
        const keyword = flags & ts.NodeFlags.Const ? 'const' : flags & ts.NodeFlags.Let ? 'let' : 'var';
        const type = d.type
          ? p.print(d.type, expanded ? expanded.literal : undefined)
          : this.checker.typeToString(compat.typeOfSymbol(this.ts, this.checker, sym));
        return keyword + ' ' + type;
      }
      case 'interface': {
        const withTps = kindDecls.find((x) => /** @type {any} */ (x).typeParameters);
        /** @type {string[]} */
        const bases = [];
        for (const x of kindDecls) {
          for (const h of /** @type {any} */ (x).heritageClauses || []) {
            for (const t of h.types) {
              const text = p.print(t);
              if (!bases.includes(text)) bases.push(text);
            }
          }
        }
        return 'interface' + this.typeParams(withTps && /** @type {any} */ (withTps).typeParameters) + (bases.length ? ' extends ' + bases.join(', ') : '');
      }
      case 'enum':
        return kindDecls.some((x) => ts.getCombinedModifierFlags(x) & ts.ModifierFlags.Const) ? 'const enum' : 'enum';
      case 'type': {
        const head = 'type' + this.typeParams(d.typeParameters);
        return ts.isTypeLiteralNode(d.type) ? head : head + ' = ' + p.print(d.type);
      }
      case 'namespace':
      case 'module':
        return kind;
    }
    return '';
  }
}

module.exports = { Walker };

// @ts-check
'use strict';

// cause: the root-cause tracer of Signal B. A new diagnostic often is not
// where the one edit lies: every JSX element errors because the workspace's
// jsx option reads a namespace the target removed; eleven calls reject what
// they pass to one repository parameter; a matcher the repository declared
// in its own declare global is gone; a callback parameter is implicitly any
// because a member three receivers up was removed. traceRoots follows each
// new diagnostic to that place and records it as the diagnostic's root
// ({kind, file, line, column, name, detail}); engine/match decides what a
// root becomes (an anchored finding, or downstream evidence of the finding
// at a usage).
//
// The overlay program explains why the diagnostic exists; the baseline
// program (same parsed files, the installed packages) says what a name used
// to resolve to, which matters exactly when the overlay no longer resolves
// it, and whether a declaration's type changed. The tracer is best effort:
// whatever it cannot follow leaves the diagnostic without a root, as it was.

const fs = require('fs');
const path = require('path');
const { real, inside } = require('./paths');
const { isRegular: isFile } = require('./regular');
const compat = require('./compat');

/**
 * @typedef {import('typescript').Program} Program
 * @typedef {import('typescript').TypeChecker} TypeChecker
 * @typedef {import('typescript').SourceFile} SourceFile
 * @typedef {import('typescript').Node} Node
 * @typedef {import('typescript').Symbol} TSSymbol
 * @typedef {{kind: string, file: string, line: number, column: number, name: string, detail?: string}} Root
 * @typedef {{file: string, line: number, column: number, start: number, length: number, code: number, message: string, root?: Root}} Diag
 * @typedef {{root: string, packages: string[], remap: {name: string, dir: string}[]}} Mapping
 * @typedef {{files: string[], options: import('typescript').CompilerOptions}} UnitLike
 * @typedef {{u: UnitLike, program: Program}} Compiled
 * @typedef {{
 *   repoRoot: string,
 *   rel: (f: string) => string,
 *   mapping: Mapping,
 *   baselineMapping?: Mapping | null,
 *   programs: Compiled[],
 *   baseline: (u: any) => Program,
 * }} TraceContext
 */

// A global JSX namespace the target no longer declares.
const JSX_CODES = new Set([7026, 2602]);
// A mismatch at an argument (TS2345) or a JSX attribute (TS2322).
const PARAMETER_CODES = new Set([2345, 2322]);
// A name or member the compiler no longer finds.
const AUGMENTATION_CODES = new Set([2339, 2551, 2304, 2552, 2694, 2724, 2305]);
// A value that became unknown, any or nullable.
const VALUE_CODES = new Set([7005, 7006, 7010, 7011, 7019, 7022, 7023, 7031, 7034, 7053, 18046, 2571, 18047, 18048, 18049]);
// How far one chain is followed.
const MAX_STEPS = 48;
const TYPE_TEXT_LIMIT = 80;

/**
 * Sets diag.root on the diagnostics the tracer can follow to a root.
 * @param {typeof import('typescript')} ts
 * @param {TraceContext} ctx
 * @param {Diag[]} diags the overlay's new diagnostics (repository-relative)
 */
function traceRoots(ts, ctx, diags) {
  if (!diags.length || !ctx.programs.length) return;
  /** @type {Map<string, {c: Compiled, sf: SourceFile}>} */
  const byFile = new Map();
  for (const c of ctx.programs) {
    for (const f of c.u.files) {
      const sf = c.program.getSourceFile(f);
      if (sf && !byFile.has(ctx.rel(sf.fileName))) byFile.set(ctx.rel(sf.fileName), { c, sf });
    }
  }
  const tracer = new Tracer(ts, ctx, diags);
  for (const d of diags) {
    const at = byFile.get(d.file);
    if (!at || !d.length && !d.start) continue;
    try {
      const root = tracer.trace(at.c, at.sf, d);
      if (root) d.root = root;
    } catch {
      // A compiler that lacks an API the tracer uses (an older 4.x) or a
      // node shape it did not expect: the diagnostic keeps no root.
    }
  }
}

class Tracer {
  /**
   * @param {typeof import('typescript')} ts
   * @param {TraceContext} ctx
   * @param {Diag[]} diags
   */
  constructor(ts, ctx, diags) {
    this.ts = ts;
    this.ctx = ctx;
    this.repoReal = real(ctx.repoRoot);
    /** @type {Map<string, Set<number>>} file -> starts of new diagnostics */
    this.newAt = new Map();
    for (const d of diags) {
      const s = this.newAt.get(d.file) || new Set();
      s.add(d.start);
      this.newAt.set(d.file, s);
    }
    /** @type {Map<Compiled, Program>} */
    this.baselines = new Map();
    /** @type {string[]} real directories of the checked packages, both sides */
    this.packageDirs = [];
    const names = new Set(ctx.mapping.packages);
    for (const m of [ctx.mapping, ctx.baselineMapping]) {
      if (!m) continue;
      for (const n of m.packages) names.add(n);
      for (const r of m.remap) this.packageDirs.push(real(r.dir));
      for (const n of m.packages) this.packageDirs.push(path.join(m.root, 'node_modules', n));
    }
    // The installed copies: wherever the package manager put them (the
    // pnpm store included), their path ends in node_modules/<name>.
    this.packageSegments = [...names].map((n) => path.sep + 'node_modules' + path.sep + n.split('/').join(path.sep) + path.sep);
    /** @type {Map<string, Root | null>} */
    this.jsxRoots = new Map();
  }

  /**
   * @param {Compiled} c
   * @param {SourceFile} sf
   * @param {Diag} d
   * @returns {Root | null}
   */
  trace(c, sf, d) {
    const root = this.traceKind(c, sf, d);
    // The site is never its own cause.
    if (root && root.file === d.file && root.line === d.line && root.column === d.column) return null;
    return root;
  }

  /**
   * @param {Compiled} c
   * @param {SourceFile} sf
   * @param {Diag} d
   * @returns {Root | null}
   */
  traceKind(c, sf, d) {
    if (JSX_CODES.has(d.code)) return this.configRoot(c);
    if (PARAMETER_CODES.has(d.code)) {
      const r = this.parameterRoot(c, sf, d);
      if (r) return r;
    }
    if (AUGMENTATION_CODES.has(d.code)) {
      const r = this.augmentationRoot(c, sf, d);
      if (r) return r;
    }
    if (VALUE_CODES.has(d.code)) return this.valueRoot(c, sf, d);
    return null;
  }

  // ---- config ------------------------------------------------------------

  /**
   * The jsx line of the tsconfig that sets jsx to preserve or react with no
   * jsxImportSource: such a workspace reads JSX element types from the
   * global namespace.
   * @param {Compiled} c
   */
  configRoot(c) {
    const ts = this.ts;
    const o = c.u.options;
    const classic = o.jsx === ts.JsxEmit.Preserve || o.jsx === ts.JsxEmit.React || o.jsx === ts.JsxEmit.ReactNative;
    if (!classic || o.jsxImportSource) return null;
    const configFile = typeof o.configFilePath === 'string' ? o.configFilePath : '';
    if (this.jsxRoots.has(configFile)) return this.jsxRoots.get(configFile) || null;
    const root = this.findJsxLine(configFile, o.jsx);
    this.jsxRoots.set(configFile, root);
    return root;
  }

  /**
   * @param {string} configFile
   * @param {any} jsx
   * @returns {Root | null}
   */
  findJsxLine(configFile, jsx) {
    const ts = this.ts;
    let file = configFile;
    // A workspace without a tsconfig of its own took the options of the
    // nearest one above.
    if (!file || !fs.existsSync(file)) {
      file = file ? ts.findConfigFile(path.dirname(path.dirname(file)), ts.sys.fileExists) || '' : '';
    }
    /** @type {{file: string, json: any, prop: any} | null} */
    let lastInRepo = null;
    const seen = new Set();
    while (file && !seen.has(file)) {
      seen.add(file);
      const json = ts.readJsonConfigFile(file, ts.sys.readFile);
      const obj = rootObject(ts, json);
      if (!obj) return null;
      const inRepo = this.inRepo(file);
      const opts = propertyOf(ts, obj, 'compilerOptions');
      const jsxProp = opts && ts.isObjectLiteralExpression(opts.initializer) ? propertyOf(ts, opts.initializer, 'jsx') : undefined;
      if (jsxProp) {
        if (inRepo) return this.rootAt('config', json, jsxProp, 'jsx', jsxDetail(ts, jsx));
        break;
      }
      const ext = propertyOf(ts, obj, 'extends');
      if (inRepo) lastInRepo = { file, json, prop: ext };
      if (!ext) break;
      const next = extendsTargets(ts, ext.initializer, path.dirname(file));
      // Later entries of an extends list override earlier ones.
      file = next.reverse().find((f) => {
        const o = rootObject(ts, ts.readJsonConfigFile(f, ts.sys.readFile));
        const co = o && propertyOf(ts, o, 'compilerOptions');
        return !!(co && ts.isObjectLiteralExpression(co.initializer) && propertyOf(ts, co.initializer, 'jsx')) || !!(o && propertyOf(ts, o, 'extends'));
      }) || '';
    }
    // Set by a shared config outside the repository: the edit is the
    // repository's own tsconfig, at its extends.
    if (lastInRepo && lastInRepo.prop) return this.rootAt('config', lastInRepo.json, lastInRepo.prop, 'jsx', jsxDetail(ts, jsx));
    return null;
  }

  // ---- parameter ---------------------------------------------------------

  /**
   * @param {Compiled} c
   * @param {SourceFile} sf
   * @param {Diag} d
   */
  parameterRoot(c, sf, d) {
    const ts = this.ts;
    const checker = c.program.getTypeChecker();
    const at = nodeAt(ts, sf, d.start);
    if (!at) return null;
    // A JSX attribute: the prop's declaration.
    for (let n = at; n && n !== sf; n = n.parent) {
      if (ts.isJsxAttribute(n)) {
        // The attribute's own symbol is the attribute; the prop it is
        // checked against is a property of the element's props type.
        const props = checker.getContextualType(/** @type {any} */ (n.parent));
        const key = nameText(ts, n.name);
        const sym = (props && checker.getPropertyOfType(props, key)) || checker.getSymbolAtLocation(n.name);
        const decl = sym && (sym.declarations || []).find((x) => (ts.isPropertySignature(x) || ts.isPropertyDeclaration(x)) && !!x.type);
        if (!decl || !this.inRepo(decl.getSourceFile().fileName)) return null;
        const typeNode = /** @type {any} */ (decl).type;
        if (!this.namesOutside(c.program, checker, typeNode)) return null;
        const tag = n.parent && n.parent.parent && /** @type {any} */ (n.parent.parent).tagName;
        const name = `${tag ? tag.getText() : 'props'}(${nameText(ts, /** @type {any} */ (decl).name)})`;
        return this.rootAtNode('parameter', decl, /** @type {any} */ (decl).name, name, '');
      }
      if (ts.isStatement(n) || ts.isFunctionLike(n)) break;
    }
    // An argument (TS2345): the parameter of the signature the call
    // resolved to.
    if (d.code !== 2345) return null;
    /** @type {Node} */
    let arg = at;
    while (arg.parent && !((ts.isCallExpression(arg.parent) || ts.isNewExpression(arg.parent)) && /** @type {readonly Node[]} */ (arg.parent.arguments || []).includes(arg))) {
      if (ts.isStatement(arg.parent) || ts.isSourceFile(arg.parent)) return null;
      arg = arg.parent;
    }
    const call = /** @type {import('typescript').CallExpression} */ (arg.parent);
    if (!call) return null;
    const sig = checker.getResolvedSignature(call);
    const decl = sig && sig.declaration;
    if (!decl || ts.isJSDocSignature(decl) || !this.inRepo(decl.getSourceFile().fileName)) return null;
    const params = decl.parameters;
    if (!params.length) return null;
    const i = (call.arguments || []).indexOf(/** @type {any} */ (arg));
    const param = params[Math.min(i, params.length - 1)];
    if (!param || !param.type || (i >= params.length && !param.dotDotDotToken)) return null;
    if (!this.namesOutside(c.program, checker, param.type)) return null;
    const name = `${functionName(ts, decl)}(${nameText(ts, param.name)})`;
    return this.rootAtNode('parameter', param, param.name, name, '');
  }

  /**
   * Whether a type written in the repository names a declaration of an
   * installed package (the compiler's own lib files do not count: they
   * are the same on both sides).
   * @param {Program} program
   * @param {TypeChecker} checker
   * @param {Node} typeNode
   */
  namesOutside(program, checker, typeNode) {
    const ts = this.ts;
    let found = false;
    /** @param {Node} n */
    const visit = (n) => {
      if (found) return;
      if (ts.isImportTypeNode(n)) {
        found = true;
        return;
      }
      /** @type {Node | undefined} */
      let ref;
      if (ts.isTypeReferenceNode(n)) ref = n.typeName;
      else if (ts.isExpressionWithTypeArguments(n)) ref = n.expression;
      else if (ts.isTypeQueryNode(n)) ref = n.exprName;
      if (ref) {
        let sym = checker.getSymbolAtLocation(ref);
        if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
        for (const d of (sym && sym.declarations) || []) {
          const f = d.getSourceFile();
          if (!program.isSourceFileDefaultLibrary(f) && !this.inRepo(f.fileName)) found = true;
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(typeNode);
    return found;
  }

  // ---- augmentation -------------------------------------------------------

  /**
   * A member or name the overlay no longer finds, declared in the baseline
   * by a repository augmentation.
   * @param {Compiled} c
   * @param {SourceFile} sf
   * @param {Diag} d
   */
  augmentationRoot(c, sf, d) {
    const ts = this.ts;
    const at = nodeAt(ts, sf, d.start);
    if (!at || !ts.isIdentifier(at) && !ts.isPrivateIdentifier(at)) return null;
    const base = this.baselineOf(c);
    const bnode = counterpart(ts, base, at);
    if (!bnode) return null;
    const sym = resolveAlias(ts, base.getTypeChecker(), base.getTypeChecker().getSymbolAtLocation(bnode));
    for (const decl of (sym && sym.declarations) || []) {
      if (!this.inRepo(decl.getSourceFile().fileName)) continue;
      const aug = augmentationOf(ts, decl);
      if (!aug) continue;
      const name = qualifiedName(ts, decl, aug);
      if (aug.flags & ts.NodeFlags.GlobalAugmentation) {
        return this.rootAtNode('augmentation', aug, aug, name, 'in its declare global block');
      }
      // A module augmentation: at the declaration inside the block that
      // holds the member (the interface it merges into).
      /** @type {Node} */
      let top = decl;
      while (top.parent && top.parent.parent !== aug) top = top.parent;
      const named = /** @type {any} */ (top).name || top;
      return this.rootAtNode('augmentation', top, named, name, `in its declare module ${/** @type {any} */ (aug).name.getText()} block`);
    }
    return null;
  }

  // ---- declaration and usage ---------------------------------------------

  /**
   * An unknown or any value followed from the diagnostic to where it comes
   * from: through declarations and their initializers, callees and their
   * receivers. A reference into the checked package the overlay changed
   * (or no longer resolves) is the root of kind usage; else the deepest
   * repository declaration on the chain whose type changed or that fails
   * to compile itself; else a package reference whose type at that place
   * changed.
   * @param {Compiled} c
   * @param {SourceFile} sf
   * @param {Diag} d
   */
  valueRoot(c, sf, d) {
    const ts = this.ts;
    const site = spanNode(ts, sf, d.start, d.length);
    if (!site) return null;
    const walk = new Walk(this, c, d);
    if (d.code === 7006 || d.code === 7031) {
      const param = enclosing(ts, site, (n) => ts.isParameter(n));
      if (!param || !param.parent) return null;
      walk.context(/** @type {any} */ (param.parent));
    } else if (isDeclarationName(ts, site)) {
      walk.declaration(/** @type {any} */ (site.parent), true);
    } else {
      walk.expression(site);
    }
    if (walk.usage) return walk.usage;
    if (walk.declared) return walk.declared;
    return walk.fallback;
  }

  /**
   * @param {Compiled} c
   * @returns {Program}
   */
  baselineOf(c) {
    let p = this.baselines.get(c);
    if (!p) {
      p = this.ctx.baseline(c.u);
      this.baselines.set(c, p);
    }
    return p;
  }

  /** @param {string} file */
  inRepo(file) {
    const abs = path.resolve(file);
    const r = real(abs);
    for (const f of [abs, r]) {
      const rel = path.relative(this.repoReal, f);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.split(path.sep).includes('node_modules')) return true;
    }
    const rel = path.relative(path.resolve(this.ctx.repoRoot), abs);
    return !!rel && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.split(path.sep).includes('node_modules');
  }

  /** @param {string} file */
  inPackage(file) {
    const abs = path.resolve(file);
    if (this.packageDirs.some((d) => inside(d, abs))) return true;
    return this.packageSegments.some((s) => abs.includes(s));
  }

  /**
   * @param {string} kind
   * @param {SourceFile} sf
   * @param {Node} node
   * @param {string} name
   * @param {string} detail
   * @returns {Root}
   */
  rootAt(kind, sf, node, name, detail) {
    const start = node.getStart(sf);
    const { line, character } = sf.getLineAndCharacterOfPosition(start);
    /** @type {Root} */
    const r = { kind, file: this.ctx.rel(sf.fileName), line: line + 1, column: character + 1, name };
    if (detail) r.detail = detail;
    return r;
  }

  /**
   * @param {string} kind
   * @param {Node} _decl
   * @param {Node} at
   * @param {string} name
   * @param {string} detail
   */
  rootAtNode(kind, _decl, at, name, detail) {
    return this.rootAt(kind, at.getSourceFile(), at, name, detail);
  }
}

/**
 * One chain from a diagnostic's site.
 */
class Walk {
  /**
   * @param {Tracer} t
   * @param {Compiled} c
   * @param {Diag} d
   */
  constructor(t, c, d) {
    this.t = t;
    this.ts = t.ts;
    this.c = c;
    this.d = d;
    this.over = c.program.getTypeChecker();
    this.steps = 0;
    /** @type {Set<Node>} */
    this.seen = new Set();
    /** @type {Root | null} */
    this.usage = null;
    /** @type {Root | null} */
    this.declared = null;
    /** @type {Root | null} */
    this.fallback = null;
  }

  get done() {
    return !!this.usage || this.steps > MAX_STEPS;
  }

  base() {
    return this.t.baselineOf(this.c);
  }

  /** @param {Node} n */
  visit(n) {
    if (this.done || this.seen.has(n)) return false;
    this.seen.add(n);
    this.steps++;
    return true;
  }

  /**
   * A function whose parameter is implicitly any: its type would have come
   * from the context it is passed to.
   * @param {Node} fn
   */
  context(fn) {
    const ts = this.ts;
    if (!this.visit(fn)) return;
    let n = fn;
    while (n.parent && ts.isParenthesizedExpression(n.parent)) n = n.parent;
    const p = n.parent;
    if (!p) return;
    if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && /** @type {readonly Node[]} */ (p.arguments || []).includes(n)) {
      this.expression(p.expression);
      return;
    }
    if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.parent && ts.isObjectLiteralExpression(p.parent)) {
      this.context(p.parent);
      return;
    }
    if (ts.isJsxExpression(p) && p.parent && ts.isJsxAttribute(p.parent)) {
      const el = p.parent.parent && p.parent.parent.parent;
      if (el && /** @type {any} */ (el).tagName) this.expression(/** @type {any} */ (el).tagName);
      return;
    }
    if (ts.isMethodDeclaration(fn) && p && ts.isObjectLiteralExpression(p)) {
      this.context(p);
      return;
    }
    if ((ts.isVariableDeclaration(p) || ts.isPropertyDeclaration(p)) && p.type) this.typeNode(p.type);
  }

  /**
   * Where a value comes from.
   * @param {Node} e
   */
  expression(e) {
    const ts = this.ts;
    while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAwaitExpression(e) || compat.isSatisfies(ts, e)) {
      e = /** @type {any} */ (e).expression;
    }
    if (!this.visit(e)) return;
    if (ts.isCallExpression(e) || ts.isNewExpression(e) || ts.isTaggedTemplateExpression(e)) {
      this.expression(ts.isTaggedTemplateExpression(e) ? e.tag : e.expression);
      return;
    }
    if (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) {
      this.typeNode(e.type);
      return;
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = ts.isPropertyAccessExpression(e) ? e.name : e.argumentExpression;
      if (this.reference(name, e)) return;
      this.expression(e.expression);
      return;
    }
    if (ts.isIdentifier(e)) {
      this.reference(e, e);
      return;
    }
    if (ts.isConditionalExpression(e)) {
      this.expression(e.whenTrue);
      this.expression(e.whenFalse);
      return;
    }
    if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.BarBarToken || e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)) {
      this.expression(e.left);
      this.expression(e.right);
    }
  }

  /**
   * A name: into the checked package (its usage may be the root), into the
   * repository (its declaration is followed), or elsewhere (the receiver
   * is, which the caller does when this returns false).
   * @param {Node} name
   * @param {Node} expr the whole reference (receiver included)
   * @returns {boolean} the chain went on from the name's declaration
   */
  reference(name, expr) {
    const ts = this.ts;
    const t = this.t;
    const overSym = resolveAlias(ts, this.over, this.over.getSymbolAtLocation(name));
    const base = this.base();
    const bchecker = base.getTypeChecker();
    const bname = counterpart(ts, base, name);
    const baseSym = bname ? resolveAlias(ts, bchecker, bchecker.getSymbolAtLocation(bname)) : undefined;
    const inPkg = (/** @type {TSSymbol | undefined} */ s) => !!s && (s.declarations || []).some((d) => t.inPackage(d.getSourceFile().fileName));
    if (inPkg(overSym) || inPkg(baseSym)) {
      const changed = !overSym || !baseSym || declText(overSym) !== declText(baseSym);
      if (changed) {
        this.usage = t.rootAt('usage', name.getSourceFile(), name, refName(expr), overSym ? '' : 'which the target no longer declares');
        return true;
      }
      // A package member that did not change hands over to its receiver;
      // its type at this place may still have, through the receiver.
      if (!this.fallback && bname && typeText(ts, this.over, name) !== typeText(ts, bchecker, bname)) {
        this.fallback = t.rootAt('usage', name.getSourceFile(), name, refName(expr), '');
      }
      return false;
    }
    const sym = overSym || baseSym;
    const decls = ((sym && sym.declarations) || []).filter((d) => t.inRepo(d.getSourceFile().fileName));
    if (!decls.length) return false;
    for (const d of decls) this.declaration(d, false);
    // A member of a repository object type: its receiver too.
    return !(ts.isPropertyAccessExpression(expr) || ts.isElementAccessExpression(expr));
  }

  /**
   * A repository declaration on the chain: blamed when its type differs
   * between the installed version and the target or it fails to compile
   * itself, and followed to what gives it its value.
   * @param {Node} decl
   * @param {boolean} isSite the diagnostic is at this declaration's name
   */
  declaration(decl, isSite) {
    const ts = this.ts;
    if (this.done) return;
    if (!isSite) this.consider(decl);
    if (ts.isBindingElement(decl)) {
      /** @type {Node | undefined} */
      let p = decl.parent && decl.parent.parent;
      while (p && ts.isBindingElement(p)) p = p.parent && p.parent;
      if (p) this.declaration(p, isSite);
      return;
    }
    if (ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isPropertyAssignment(decl)) {
      const init = /** @type {any} */ (decl).initializer;
      if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) this.returns(init);
      else if (init) this.expression(init);
      else if (/** @type {any} */ (decl).type) this.typeNode(/** @type {any} */ (decl).type);
      return;
    }
    if (ts.isShorthandPropertyAssignment(decl)) {
      this.reference(decl.name, decl.name);
      return;
    }
    if (ts.isParameter(decl)) {
      if (decl.type) this.typeNode(decl.type);
      else if (decl.initializer) this.expression(decl.initializer);
      else if (decl.parent) this.context(decl.parent);
      return;
    }
    if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isGetAccessorDeclaration(decl)) {
      if (decl.type) this.typeNode(decl.type);
      else this.returns(decl);
    }
  }

  /**
   * What a function returns, when no type says.
   * @param {any} fn
   */
  returns(fn) {
    const ts = this.ts;
    if (!this.visit(fn)) return;
    if (fn.type) {
      this.typeNode(fn.type);
      return;
    }
    const body = fn.body;
    if (!body) return;
    if (!ts.isBlock(body)) {
      this.expression(body);
      return;
    }
    /** @param {Node} n */
    const visit = (n) => {
      if (this.done) return;
      if (ts.isFunctionLike(n) || ts.isClassLike(n)) return;
      if (ts.isReturnStatement(n) && n.expression) {
        this.expression(n.expression);
        return;
      }
      ts.forEachChild(n, visit);
    };
    ts.forEachChild(body, visit);
  }

  /**
   * A written type: a reference into the checked package is a usage.
   * @param {Node} typeNode
   */
  typeNode(typeNode) {
    const ts = this.ts;
    /** @param {Node} n */
    const visit = (n) => {
      if (this.done) return;
      if (ts.isTypeReferenceNode(n)) {
        const name = ts.isQualifiedName(n.typeName) ? n.typeName.right : n.typeName;
        this.reference(name, n.typeName);
      }
      ts.forEachChild(n, visit);
    };
    visit(typeNode);
  }

  /** @param {Node} decl */
  consider(decl) {
    const ts = this.ts;
    const t = this.t;
    if (!t.inRepo(decl.getSourceFile().fileName)) return;
    // A parameter or binding typed by its context only changes because
    // what it is passed did: the edit is further down the chain.
    if (ts.isBindingElement(decl) || ts.isParameter(decl) && !decl.type) return;
    const name = /** @type {any} */ (decl).name;
    if (!name || !ts.isIdentifier(name) && !ts.isPrivateIdentifier(name) && !ts.isStringLiteral(name)) return;
    const base = this.base();
    const bchecker = base.getTypeChecker();
    const bname = counterpart(ts, base, name);
    let detail = '';
    if (bname) {
      const before = typeText(ts, bchecker, bname);
      const after = typeText(ts, this.over, name);
      if (before !== after) detail = `whose type changed from ${clip(before)} to ${clip(after)}`;
    }
    if (!detail && this.failsItself(decl)) detail = 'which no longer compiles';
    if (!detail) return;
    this.declared = t.rootAt('declaration', decl.getSourceFile(), name, declName(ts, decl), detail);
  }

  /** @param {Node} decl */
  failsItself(decl) {
    const sf = decl.getSourceFile();
    const starts = this.t.newAt.get(this.t.ctx.rel(sf.fileName));
    if (!starts) return false;
    const from = decl.getStart(sf);
    for (const s of starts) {
      if (s >= from && s < decl.end && !(this.t.ctx.rel(sf.fileName) === this.d.file && s === this.d.start)) return true;
    }
    return false;
  }
}

// ---- helpers ---------------------------------------------------------------

/**
 * The innermost node whose text starts at or before pos and ends after it.
 * @param {typeof import('typescript')} ts
 * @param {SourceFile} sf
 * @param {number} pos
 * @returns {Node | null}
 */
function nodeAt(ts, sf, pos) {
  /** @type {Node} */
  let node = sf;
  for (;;) {
    /** @type {Node | undefined} */
    let next;
    ts.forEachChild(node, (c) => {
      if (!next && c.pos <= pos && pos < c.end && c.getStart(sf) <= pos) next = c;
    });
    if (!next) return node === sf ? null : node;
    node = next;
  }
}

/**
 * The largest node starting at start and ending within start+length: the
 * expression a diagnostic spans.
 * @param {typeof import('typescript')} ts
 * @param {SourceFile} sf
 * @param {number} start
 * @param {number} length
 */
function spanNode(ts, sf, start, length) {
  let n = nodeAt(ts, sf, start);
  if (!n) return null;
  while (n.parent && n.parent !== sf && n.parent.getStart(sf) === start && n.parent.end <= start + Math.max(length, 1)) n = n.parent;
  return n;
}

/**
 * The same node in another program: the very node when both share the
 * parsed file, else the node with the same span and kind.
 * @param {typeof import('typescript')} ts
 * @param {Program} program
 * @param {Node} node
 * @returns {Node | null}
 */
function counterpart(ts, program, node) {
  const sf = node.getSourceFile();
  const other = program.getSourceFile(sf.fileName);
  if (!other) return null;
  if (other === sf) return node;
  const start = node.getStart(sf);
  let n = nodeAt(ts, other, start);
  while (n && !(n.kind === node.kind && n.pos === node.pos && n.end === node.end)) n = n.parent === other ? null : n.parent;
  return n || null;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {TypeChecker} checker
 * @param {TSSymbol | undefined} sym
 */
function resolveAlias(ts, checker, sym) {
  if (sym && sym.flags & ts.SymbolFlags.Alias) {
    try {
      return checker.getAliasedSymbol(sym);
    } catch {
      return sym;
    }
  }
  return sym;
}

/**
 * A symbol's declarations as written, whitespace collapsed: the package
 * changed the symbol when this differs between the two versions.
 * @param {TSSymbol} sym
 */
function declText(sym) {
  return (sym.declarations || []).map((d) => d.getText().replace(/\s+/g, ' ')).join('\n');
}

/**
 * A type as the checker prints it, with import("…") paths dropped: the
 * overlay's copies live elsewhere than the installed ones.
 * @param {typeof import('typescript')} ts
 * @param {TypeChecker} checker
 * @param {Node} node
 */
function typeText(ts, checker, node) {
  const type = checker.getTypeAtLocation(node);
  return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation).replace(/import\("[^"]*"\)\./g, '');
}

/** @param {string} s */
function clip(s) {
  return s.length > TYPE_TEXT_LIMIT ? s.slice(0, TYPE_TEXT_LIMIT - 1) + '…' : s;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {Node} n
 * @param {(n: Node) => boolean} pred
 */
function enclosing(ts, n, pred) {
  /** @type {Node | undefined} */
  let cur = n;
  while (cur && !ts.isSourceFile(cur)) {
    if (pred(cur)) return cur;
    cur = cur.parent;
  }
  return undefined;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {Node} n
 */
function isDeclarationName(ts, n) {
  const p = n.parent;
  return !!p && ts.isIdentifier(n) && (ts.isVariableDeclaration(p) || ts.isBindingElement(p) || ts.isPropertyDeclaration(p) || ts.isParameter(p)) && /** @type {any} */ (p).name === n;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {any} name
 */
function nameText(ts, name) {
  if (!name) return '';
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}

/**
 * @param {typeof import('typescript')} ts
 * @param {any} decl
 */
function functionName(ts, decl) {
  if (decl.name) {
    const own = nameText(ts, decl.name);
    const cls = decl.parent && (ts.isClassLike(decl.parent) || ts.isInterfaceDeclaration(decl.parent)) && decl.parent.name ? decl.parent.name.text : '';
    return cls ? `${cls}#${own}` : own;
  }
  const p = decl.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return nameText(ts, p.name);
  return 'function';
}

/**
 * @param {typeof import('typescript')} ts
 * @param {any} decl
 */
function declName(ts, decl) {
  if (ts.isParameter(decl) && decl.parent) return `${functionName(ts, decl.parent)}(${nameText(ts, decl.name)})`;
  return functionName(ts, decl);
}

/** @param {Node} expr */
function refName(expr) {
  const text = expr.getText().replace(/\s+/g, '');
  return text.length > 60 ? '…' + text.slice(text.length - 59) : text;
}

/**
 * The declare global or declare module "x" block holding a declaration.
 * @param {typeof import('typescript')} ts
 * @param {Node} decl
 */
function augmentationOf(ts, decl) {
  for (let n = decl.parent; n && !ts.isSourceFile(n); n = n.parent) {
    if (!ts.isModuleDeclaration(n)) continue;
    if (n.flags & ts.NodeFlags.GlobalAugmentation) return n;
    if (ts.isStringLiteral(n.name)) return n;
  }
  return null;
}

/**
 * jest.Matchers#toMatchImageSnapshot: the names from the augmentation
 * block down to the declaration.
 * @param {typeof import('typescript')} ts
 * @param {Node} decl
 * @param {Node} aug
 */
function qualifiedName(ts, decl, aug) {
  /** @type {string[]} */
  const parts = [];
  let member = '';
  if (ts.isPropertySignature(decl) || ts.isMethodSignature(decl) || ts.isPropertyDeclaration(decl) || ts.isMethodDeclaration(decl)) {
    member = nameText(ts, /** @type {any} */ (decl).name);
  } else if (/** @type {any} */ (decl).name) {
    parts.unshift(nameText(ts, /** @type {any} */ (decl).name));
  }
  for (let n = decl.parent; n && n !== aug; n = n.parent) {
    if (ts.isModuleDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isClassDeclaration(n)) {
      if (n.name) parts.unshift(nameText(ts, n.name));
    }
  }
  const path = parts.join('.');
  return member ? (path ? `${path}#${member}` : member) : path;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').JsonSourceFile} json
 */
function rootObject(ts, json) {
  const st = json && json.statements && json.statements[0];
  const e = st && /** @type {any} */ (st).expression;
  return e && ts.isObjectLiteralExpression(e) ? e : null;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').ObjectLiteralExpression} obj
 * @param {string} key
 * @returns {import('typescript').PropertyAssignment | undefined}
 */
function propertyOf(ts, obj, key) {
  for (const p of obj.properties) {
    if (ts.isPropertyAssignment(p) && p.name && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) && p.name.text === key) return p;
  }
  return undefined;
}

/**
 * The files an extends names, resolved the way tsc does for relative
 * paths and packages (a directory's tsconfig.json, a .json suffix).
 * @param {typeof import('typescript')} ts
 * @param {any} init
 * @param {string} dir
 * @returns {string[]}
 */
function extendsTargets(ts, init, dir) {
  /** @type {string[]} */
  const names = [];
  if (ts.isStringLiteral(init)) names.push(init.text);
  else if (ts.isArrayLiteralExpression(init)) for (const e of init.elements) if (ts.isStringLiteral(e)) names.push(e.text);
  /** @type {string[]} */
  const out = [];
  for (const n of names) {
    const f = resolveExtends(n, dir);
    if (f) out.push(f);
  }
  return out;
}

/**
 * @param {string} name
 * @param {string} dir
 */
function resolveExtends(name, dir) {
  /** @param {string} base */
  const candidates = (base) => [base, base + '.json', path.join(base, 'tsconfig.json')];
  if (name.startsWith('.') || path.isAbsolute(name)) {
    return candidates(path.resolve(dir, name)).find(isFile) || '';
  }
  for (let d = dir; ; d = path.dirname(d)) {
    const f = candidates(path.join(d, 'node_modules', name)).find(isFile);
    if (f) return f;
    if (path.dirname(d) === d) return '';
  }
}

/**
 * @param {typeof import('typescript')} ts
 * @param {any} jsx
 */
function jsxDetail(ts, jsx) {
  const name = jsx === ts.JsxEmit.Preserve ? 'preserve' : jsx === ts.JsxEmit.ReactNative ? 'react-native' : 'react';
  return `"jsx": "${name}" with no jsxImportSource reads the global JSX namespace, which the target no longer declares`;
}

module.exports = { traceRoots };

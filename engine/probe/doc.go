// Package probe is Signal C: it loads the installed and the target copy of
// a package in a sandboxed child Node, with require() and with import(),
// and diffs what each loader returned. Types can claim that export = became
// a default export while module.exports is unchanged, or miss a package
// going ESM-only; a repository that never type-checks its JavaScript only
// meets what loading gives, so loading decides there.
//
// # API
//
//	res, err := probe.Run(ctx, probe.Request{
//		Name: "chalk", RepoRoot: root, Workspace: wsDir,
//		Installed: probe.Copy{Version: "4.1.2", Integrity: lockIntegrity},
//		Target:    probe.Copy{Version: "5.3.0", Dir: fetchedTargetDir},
//		Node:      &nodeInfo,   // modformat.NodeVersion's answer; nil reads it
//		Fetch:     fetchRange,  // name + range → extracted dir (the checker's)
//		Available: overlayLinks, // copies Signal B already holds
//	})
//
// Request.Subpaths names the subpath entries the repository imports
// ("./v4" for pkg/v4): each copy loads each of them too, in a sandbox of
// its own, and their changes carry the entry (RuntimeChange.Subpath).
//
// res is a model.RuntimeResult: the Node that ran and why that one, each
// copy's loads (throws and their codes, keys with typeof, callable and
// constructable, for the value and its default), Status compared with the
// Changes (Diff: require-throws, import-throws, key-removed,
// callable-lost, constructable-lost, namespace-instead), or Status
// inconclusive with the Reason. An inconclusive probe is never a change.
// err is only for a request naming nothing, a cancelled context, or no
// Node at all.
//
// Hits(res, probe.Site{Loader, Path, Access}) is the arbiter's question
// for one usage: the changes the site meets (its loader's load throws, a
// member it reads is gone, the value it calls or constructs no longer is
// callable or constructable, the required function became a namespace),
// and whether the probe decided at all.
//
// # The sandbox
//
// The child runs under Node's permission model (--experimental-permission
// on Node 20 to 22.12 and 23.0 to 23.4, the stable --permission from
// 22.13 and 23.5; both tested): reads only of its own
// temporary directory and of the node_modules trees the copy resolves
// from, no writes, no child processes, no workers, no addons (also
// --no-addons), no WASI. Node does not govern the network, so a preload
// (js/preload.cjs) makes every socket connect and listen, UDP socket, DNS
// lookup, fetch and process.kill throw. The environment is empty, the
// heap bounded, the load killed with its process group after
// DefaultTimeout (15 s). Nothing is installed and no script of any
// package runs; only the package's own module code executes, which is the
// point. A refusal the load met makes the copy inconclusive. A Node older
// than 20 has no permission model: the probe then never runs.
//
// # Placement
//
// The installed copy loads from its real directory, reached through a link
// in the probe's temporary node_modules: Node resolves real paths, so its
// dependencies resolve where the package manager put them, pnpm's .pnpm
// layout included. The target is copied (never linked) into a temporary
// node_modules with the tree its manifests declare, hoisted npm-style: the
// consumer's copy when it satisfies the declared range (linked), a copy
// the caller offers (Available), else one fetched (Request.Fetch).
// Optional dependencies and optional peers that cannot be provided are
// left out; a load that then misses a package, of the main entry or of a
// subpath entry alike, gets it at the range its importer declares and runs
// again, once per package.
//
// # Which Node
//
// The repository's Node as module-format findings read it
// (modformat.NodeVersion: Dockerfile, .nvmrc, .node-version,
// .tool-versions, volta, CI, engines): the current Node when it is of that
// release line, else the newest local install of that line or major under
// nvm, volta, asdf or fnm, else the current Node; RuntimeNode.Why says
// which and why.
//
// # Inconclusive
//
// A copy that looks native (gypfile, binding.gyp, a .node binary, an
// install script, platform-specific optional dependencies), a dependency
// that cannot be provided, a refusal by the sandbox, a timeout, or neither
// loader getting a value: each makes the result inconclusive with its
// reason.
//
// # Cache
//
// Each copy's probe is kept under the cache's runtime folder per
// package@version (and integrity when known), per Node release that ran
// (finer than its major: require(esm) arrived in minors), per probe
// script and per set of subpath entries loaded. Loads cut short (timeout, refusal, missing dependency) are not
// kept.
package probe

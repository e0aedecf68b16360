// Package modformat owns the module-format half of check: whether a target
// release stops supporting require() (read from the installed and target
// package.json, never from declarations, which cannot see a package go
// ESM-only), which Node the repository runs and from which source, and how
// each require() site fares against the target's ESM export shape on that
// Node.
//
// Nothing here executes package code. The repository's Node is read from
// files (Dockerfile, .nvmrc, .node-version, .tool-versions, volta.node,
// GitHub Actions workflows, engines.node); the target's format from its
// manifests and, when the caller hands over the extracted files, a scan of
// its ESM graph for top-level await.
package modformat

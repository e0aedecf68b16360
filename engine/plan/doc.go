// Package plan owns the per-rule plan check attaches to a package: the
// breaking findings grouped per migration rule (a pack's rule when a pack
// covers the upgrade, else a plain-English title per change kind, symbol
// or compiler error code), each rule's sites split into what a pack's
// transform takes ("by rule"), what the assisted fixer gets ("by agent")
// and what nobody automates ("manual"), and the exact commands to go on
// with. It is pure: findings in, a model.Plan out.
package plan

// Package isolate owns where `uptide fix` works and the guard around the
// user's checkout. A fix runs in a private git clone (never a worktree: a
// worktree shares .git/hooks and .git/config with the checkout, which is how
// a hook installer run by a prepare script once reached a real checkout)
// under one root of uptide's own, <tmp>/uptide-runs/run-<id>, each carrying
// a marker file. The clone pushes where the checkout pushes, sees its
// remote-tracking refs, commits as its author, runs git with an empty hooks
// directory and gets the installed node_modules as a copy (the files pnpm
// hard-linked from its store as links to them, as pnpm itself lays them out).
//
// The checkout is snapshotted before and after a run (Take, Changes); a
// dirty checkout is refused before anything is written (Dirty). What the
// checkout may gain is a branch ref (Publish: a new branch or a fast-forward
// of one that is not checked out) and the stored run under
// .git/uptide/<branch>/ (StoreRun), where git status never looks. Run
// directories are only ever deleted through one guard (inspect), which
// RemoveRun, Clean and Clone.Remove share; Clone.Remove renames the run
// directory and leaves its deletion to a process of its own.
package isolate

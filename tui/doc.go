// Package tui is Uptide's interactive planner, a Bubble Tea app: the root
// model owns a stack of screens (the dependencies table at the bottom,
// details, the target picker and help pushed above it), the Store they
// share, the check queue, and the one channel engine progress arrives on.
//
// The app talks to the analysis through the Engine interface only: Live is
// the real one (engine.Discover, the registry client, engine/groups), and
// tests drive fakes. Every call runs in a tea.Cmd, so the UI goroutine never
// waits on the engine; see pump.go for how progress reaches it without
// ever blocking either side. What the discovery report replaces (every
// row's store entry and table line, the groups, the sort orders, the
// groups' plans) is built in the command that delivers it, from the report
// alone, so Update only swaps it in (work.go, reportMsg).
package tui

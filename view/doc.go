// Package view turns reports into what is shown: the counts and words
// the CLI's renderers and the planner's screens both draw, computed once
// here so the two never disagree. It is pure: data in, data out.
package view

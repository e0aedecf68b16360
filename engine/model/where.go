package model

import "strings"

// Where names workspaces the way every report prints them: the root
// workspace "." as "(root)", the others by their path. It lives beside the
// workspaces' type because fix's progress speaks of them too, and fix
// cannot import the view that draws its report.
func Where(ws []string) string {
	names := make([]string, len(ws))
	for i, w := range ws {
		if w == "." {
			w = "(root)"
		}
		names[i] = w
	}
	return strings.Join(names, ", ")
}

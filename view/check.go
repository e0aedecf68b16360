package view

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// RuleSites is a plan rule's sites as check shows them: "3", or "1 fix, 12
// errors" when its edits stand for more errors than sites.
func RuleSites(r model.PlanRule) string {
	if r.Errors > r.Sites {
		return fmt.Sprintf("%s, %s", Count(r.Sites, "fix"), Count(r.Errors, "error"))
	}
	return strconv.Itoa(r.Sites)
}

// DiagLine is one compiler error on one line: "src/a.ts:3 TS2345 message",
// the message's own line breaks folded.
func DiagLine(d model.Diagnostic) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	return fmt.Sprintf("%s:%d TS%d %s", d.File, d.Line, d.Code, msg)
}

// Arrow is a move as check and list show it: "1.2.0 → 2.0.0", the
// installed version alone when there is no other target, "?" when nothing
// is installed.
func Arrow(installed, target string) string {
	switch {
	case installed == "":
		return "?"
	case target == "" || target == installed:
		return installed
	}
	return installed + " → " + target
}

// ProblemLine is an input problem on one line: "file:line: message".
func ProblemLine(p model.Problem) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

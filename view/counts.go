package view

import "github.com/uptide/uptide/engine/model"

// Behind counts the dependencies of a discovery report that have an
// update, and the majors among them: the "N behind, M major" of list's
// header and of the planner's title. It reads the report's rows, not a
// target picked in the planner, so it says how far behind the repository
// is whatever plan is being drawn up; a row the registry did not answer
// for is not counted (nothing is known about it).
func Behind(rows []model.DependencyRow) (behind, majors int) {
	for _, r := range rows {
		if r.Status != model.RowOK || r.Update.IsZero() {
			continue
		}
		behind++
		if r.Update.IsMajor() {
			majors++
		}
	}
	return behind, majors
}

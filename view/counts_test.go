package view_test

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

func TestBehind(t *testing.T) {
	rows := []model.DependencyRow{
		{Name: "a", Status: "ok", Update: model.Major(1)},
		{Name: "b", Status: "ok", Update: model.Major(2)},
		{Name: "c", Status: "ok", Update: model.UpdateKind{Level: model.LevelMinor}},
		{Name: "d", Status: "ok", Update: model.UpdateKind{Level: model.LevelPatch}},
		{Name: "e", Status: "ok"},                                  // current
		{Name: "f", Status: "not-checked", Update: model.Major(1)}, // nothing known
	}
	if behind, majors := view.Behind(rows); behind != 4 || majors != 2 {
		t.Errorf("Behind = %d, %d; want 4 behind, 2 major", behind, majors)
	}
}

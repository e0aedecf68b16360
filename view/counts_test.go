package view_test

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

func TestBehind(t *testing.T) {
	rows := []model.DependencyRow{
		{Name: "a", Status: "ok", Update: "major"},
		{Name: "b", Status: "ok", Update: "major ×2"},
		{Name: "c", Status: "ok", Update: "minor"},
		{Name: "d", Status: "ok", Update: "patch"},
		{Name: "e", Status: "ok"},                           // current
		{Name: "f", Status: "not-checked", Update: "major"}, // nothing known
	}
	if behind, majors := view.Behind(rows); behind != 4 || majors != 2 {
		t.Errorf("Behind = %d, %d; want 4 behind, 2 major", behind, majors)
	}
}

package semver

import "github.com/uptide/uptide/engine/model"

// UpdateKind names an upgrade from one version to another: "patch",
// "minor", "major", or "major ×N" when N breaking lines are crossed
// (18 → 19 "major", 3 → 5 "major ×2", 14 → 23 "major ×9"); "prerelease"
// when only the prerelease part moves (2.0.0-rc.1 → 2.0.0); "" when the
// versions are equal, invalid, or the move is not an upgrade.
//
// Below 1.0.0 it follows the caret: the left-most non-zero component is the
// breaking line, so 0.1.4 → 0.2.0 and 0.0.3 → 0.0.4 are majors (what ^0.1.4
// and ^0.0.3 refuse), and 0.2 → 0.5 crosses three of them. Leaving 0.x
// counts the majors crossed: 0.9 → 1.0 is "major", 0.9 → 3.0 "major ×3".
func UpdateKind(from, to string) model.UpdateKind {
	f, err := Parse(from)
	if err != nil {
		return model.UpdateKind{}
	}
	t, err := Parse(to)
	if err != nil || t.Compare(f) <= 0 {
		return model.UpdateKind{}
	}
	switch {
	case t.Major() != f.Major():
		return model.Major(int(t.Major() - f.Major()))
	case f.Major() == 0 && t.Minor() != f.Minor():
		return model.Major(int(t.Minor() - f.Minor()))
	case f.Major() == 0 && f.Minor() == 0 && t.Patch() != f.Patch():
		return model.Major(int(t.Patch() - f.Patch()))
	case t.Minor() != f.Minor():
		return model.UpdateKind{Level: model.LevelMinor}
	case t.Patch() != f.Patch():
		return model.UpdateKind{Level: model.LevelPatch}
	}
	return model.UpdateKind{Level: model.LevelPrerelease}
}

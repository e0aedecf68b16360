package cli

import "github.com/uptide/uptide/engine/model"

// palette colors text when color is allowed and is the identity otherwise.
type palette struct{ on bool }

func (p palette) wrap(code, s string) string {
	if !p.on || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p palette) bold(s string) string   { return p.wrap("1", s) }
func (p palette) dim(s string) string    { return p.wrap("2", s) }
func (p palette) red(s string) string    { return p.wrap("31", s) }
func (p palette) yellow(s string) string { return p.wrap("33", s) }
func (p palette) green(s string) string  { return p.wrap("32", s) }
func (p palette) cyan(s string) string   { return p.wrap("36", s) }

// update colors s, the cell of an update kind: majors red, minor yellow,
// patch green.
func (p palette) update(kind model.UpdateKind, s string) string {
	switch kind.Level {
	case model.LevelMajor:
		return p.red(s)
	case model.LevelMinor:
		return p.yellow(s)
	case model.LevelPatch:
		return p.green(s)
	}
	return s
}

package state

import (
	"github.com/uptide/uptide/tui/keys"
	"github.com/uptide/uptide/tui/theme"
)

// Shared is what every screen is built with: the data, the styles, the
// keys, and the spinner's current frame (the root model owns the one
// spinner, so every running check turns in step).
type Shared struct {
	*Store
	Styles theme.Styles
	Keys   keys.KeyMap
	Frame  string
}

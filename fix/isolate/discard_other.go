//go:build !unix

package isolate

import "errors"

// deleteDetached has no detached process to hand the deletion to here:
// Remove deletes the directory itself.
func deleteDetached(string) error { return errors.New("no detached deletion on this system") }

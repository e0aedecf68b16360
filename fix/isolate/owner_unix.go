//go:build unix

package isolate

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkPrivate refuses a runs root someone else could rearrange: in a
// shared temp directory another user could create the root first and swap
// run directories inside it.
func checkPrivate(root string) error {
	for _, stat := range []func(string) (fs.FileInfo, error){os.Lstat, os.Stat} {
		fi, err := stat(root)
		if err != nil {
			return fmt.Errorf("runs root %s: %w", root, err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		if int(st.Uid) != os.Getuid() {
			return fmt.Errorf("runs root %s belongs to another user (uid %d): remove it, or point TMPDIR at a directory of your own", root, st.Uid)
		}
		if fi.Mode()&fs.ModeSymlink == 0 && fi.Mode().Perm()&0o022 != 0 {
			return fmt.Errorf("runs root %s is writable by others (mode %o): chmod go-w it, or remove it", root, fi.Mode().Perm())
		}
	}
	return nil
}

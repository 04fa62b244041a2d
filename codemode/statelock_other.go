//go:build !unix

package codemode

import (
	"context"
	"os"
)

// lockFileExclusive does nothing where flock is missing: processes sharing a state directory
// there may exceed the cap together (docs/state.md).
func lockFileExclusive(context.Context, *os.File) error { return nil }

func unlockFile(*os.File) {}

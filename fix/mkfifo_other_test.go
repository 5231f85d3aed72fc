//go:build !unix

package fix

import "errors"

func mkfifo(p string) error { return errors.New("no fifo") }

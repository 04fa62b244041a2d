// Package deps pins dependencies while packages that use them are being written. TEMPORARY.
package deps

import (
	_ "github.com/dlclark/regexp2/v2"
	_ "github.com/dop251/goja"
	_ "github.com/evanw/esbuild/pkg/api"
	_ "golang.org/x/sync/errgroup"
	_ "gopkg.in/yaml.v3"
)

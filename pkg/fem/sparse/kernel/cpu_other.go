//go:build !amd64

package kernel

func detect() (avx2fma, avx512 bool) { return false, false }

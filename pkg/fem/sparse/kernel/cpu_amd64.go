//go:build amd64

package kernel

// cpuid executes the CPUID instruction for leaf eaxArg, sub-leaf ecxArg.
//
//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads XCR0, the OS-enabled register state mask.
//
//go:noescape
func xgetbv() (eax, edx uint32)

// detect reports AVX2+FMA and AVX-512F support. Both the CPU bits and the
// OS state bits (XCR0) must be set: a CPU with AVX-512 under an OS that does
// not save ZMM state would fault on the first instruction.
func detect() (avx2fma, avx512 bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fmaBit     = 1 << 12
		osxsaveBit = 1 << 27
		avxBit     = 1 << 28
	)
	if ecx1&(fmaBit|osxsaveBit|avxBit) != fmaBit|osxsaveBit|avxBit {
		return false, false
	}
	xcr0, _ := xgetbv()
	if xcr0&0x6 != 0x6 { // XMM and YMM state
		return false, false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	avx2fma = ebx7&(1<<5) != 0
	avx512 = avx2fma && ebx7&(1<<16) != 0 && xcr0&0xE0 == 0xE0 // opmask, ZMM_Hi256, Hi16_ZMM
	return avx2fma, avx512
}

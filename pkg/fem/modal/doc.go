// Package modal holds what the engine's eigen analyses (natural
// frequencies in package dynamic, buckling in package buckling) share: the
// model refined by subdividing its members, its equations and stiffness,
// factorizations of K − σ·B that keep their inertia, the Sturm count, the
// operator handed to package eigen, and mode shapes expanded back to the
// original nodes.
//
// # Why members are subdivided
//
// One cubic element per member is exact for static loads but not for
// modes: a cantilever modelled as one member would give its first
// frequency 0.5 % high and its fourth not at all. Members are split into
// equal segments (domain.Subdivide) so that the model has about
// 8·modes + 16 frame segments, at most 16 per member; large models keep
// one element per member, where the low modes are global and already
// well resolved.
//
// # Sturm check
//
// By Sylvester's law of inertia the number of negative pivots of the LDLᵀ
// factorization of K − σ·B is the number of eigenvalues of K·φ = λ·B·φ
// below σ (B = M, or −K_G for buckling with λ > 0). Counting at both ends
// of the range the modes were found in proves that none was missed; the
// analyses warn, naming the range, when the counts disagree.
package modal

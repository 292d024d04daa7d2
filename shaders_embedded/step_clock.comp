#version 430 core
// step_clock: the length of the substep about to run, chosen on the GPU from the speeds the
// substep before left: a speed that jumps within a step must shorten the substeps of that step,
// not those of the step after next, where the host's statistics arrive. One
// invocation, first in every moving substep (section >>step, gp__step_clock); the host copies
// clock_h into the solvers' block (gp_gravity.w), which every later pass reads as the substep.
//
// The host writes at the start of each step: clock_start 1, the step's dt, its planned substep
// H = dt / n (plus the time owed, below) and count n, the fastest speed it knows of (its own
// estimate, particles it added or wrote), the speed of sound, the spacing and max_cfl of the
// CFL condition (max_cfl 0: the caller fixed the substeps, keep them), the substep limit that
// no speed changes (viscosity, diffusion), and the contacts' limit with what decides where it
// applies (clock_contact, clock_free, clock_reach, clock_accel). Then, substep by substep:
//   h = H while nothing has shortened a substep of the step and nothing is owed (clean: the
//       host's substeps bit for bit); otherwise the time still to run over the substeps left;
//   h = min(h, limit, max_cfl spacing / (sound + v)), v the fastest particle after the substep before
//       (stat_max_speed, any kind; the integrators write it) or the host's speed;
//   h = min(h, contact) where two solids, or a solid and a wall, touch or might touch within the
//       substep: the smallest gap the contact passes saw in the substep before (solids farther
//       apart than a cell are not seen: their gap is at least the cell less two of the largest
//       radius) is at most twice what a pair can close in the substep that would run without
//       contacts (the host's plan without them, or h if longer), 2 v h + a h^2 (both moving at v, both accelerated by gravity and the
//       forces, a). Only then do grains and bodies cost the contacts' short substeps: a body
//       floating clear of everything moves at the fluid's substeps. clock_near tells the host
//       (two steps late, with the statistics) to plan the contacts' substeps itself;
//   a substep never runs past what the step owes. What the step could not run within its
//   substeps is owed (clock_lag), up to four steps' dt, and run by the next steps, whose host
//   plans its substeps for it (it reads clock_lag two steps late, with the statistics); beyond
//   that (more than the 1,000 substeps a step takes at most would need) the world runs slower
//   than the calls' time rather than owe ever more. clock_cfl keeps the largest CFL
//   number a substep of the step started with, for gp_fluid_stats.
#include "gp_common.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = 1) in;

void main() {
    float dt = uintBitsToFloat(clock_dt), planned = uintBitsToFloat(clock_planned);
    float speed = uintBitsToFloat(stat_max_speed);
    if (clock_start != 0u) {   // the step's first substep: what it owes, the speeds the host knows
        clock_start = 0u;
        float owed = uintBitsToFloat(clock_lag);
        clock_remaining = floatBitsToUint(dt + owed);
        clock_left = clock_substeps;
        clock_clean = owed == 0.0 ? 1u : 0u;
        clock_cfl = 0u;
        clock_near = 0u;
        speed = max(speed, uintBitsToFloat(clock_speed));
    }
    float remaining = uintBitsToFloat(clock_remaining);
    uint left = max(clock_left, 1u);
    float h = clock_clean != 0u ? planned : remaining / float(left);
    h = min(h, uintBitsToFloat(clock_limit));
    float cfl = uintBitsToFloat(clock_max_cfl), sound = uintBitsToFloat(clock_sound), spacing = uintBitsToFloat(clock_spacing);
    bool adapt = cfl > 0.0 && gp_finite(speed) && sound + speed > 0.0;
    if (adapt) h = min(h, cfl * spacing / (sound + speed));
    float contact = uintBitsToFloat(clock_contact);
    if (contact < 3.0e38) {
        float free_h = min(uintBitsToFloat(clock_free), uintBitsToFloat(clock_limit));   // what runs where nothing touches
        if (adapt) free_h = min(free_h, cfl * spacing / (sound + speed));
        free_h = max(free_h, h);
        float gap = min(uintBitsToFloat(stat_solid_gap), uintBitsToFloat(clock_reach) - 2.0 * uintBitsToFloat(stat_solid_radius));
        float closing = 2.0 * speed * free_h + uintBitsToFloat(clock_accel) * free_h * free_h;
        if (!(gap > 2.0 * closing)) {   // NaN too
            h = min(h, contact);
            clock_near = 1u;
        }
    }
    if (h != planned) clock_clean = 0u;
    if (clock_clean == 0u) h = min(h, remaining);
    h = max(h, 0.0);
    remaining = clock_clean != 0u && left == 1u ? 0.0 : remaining - h;
    clock_remaining = floatBitsToUint(remaining);
    clock_left = left - 1u;
    if (left == 1u) clock_lag = floatBitsToUint(clamp(remaining, 0.0, 4.0 * dt));   // beyond: slower, not owed
    clock_h = floatBitsToUint(h);
    if (adapt) clock_cfl = max(clock_cfl, floatBitsToUint(h * (sound + speed) / spacing));   // non-negative: bits order
}

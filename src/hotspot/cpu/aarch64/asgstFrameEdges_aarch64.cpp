/*
 * Copyright (c) 2026, the ASGST authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

// aarch64's answers of AsgstFrameEdges. A call leaves the return address in
// the link register (lr, x30), not on the stack: a prologue stores it with
// the caller's frame pointer as a frame record (stp x29, x30), an epilogue
// reloads both (ldp x29, x30) before it returns. Before the store and after
// the reload, the return address is in lr, perhaps signed (UseROPProtection).

#include "code/nmethod.hpp"
#include "oops/method.inline.hpp"
#include "pauth_aarch64.hpp"
#include "prims/asgstFrameEdges.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/globals.hpp"
#include "runtime/safefetch.hpp"
#include "runtime/sharedRuntime.hpp"
#include "runtime/stubRoutines.hpp"
#include "utilities/align.hpp"
#ifdef COMPILER1
#include "c1/c1_Runtime1.hpp"
#endif
#ifdef COMPILER2
#include "opto/runtime.hpp"
#endif

#ifdef LINUX
#include <ucontext.h>
#endif

// Longest path followed from pc. A prologue with a class initialization
// barrier, a stack bang and an nmethod entry barrier is some 30
// instructions; an epilogue with its return poll and the poll's stub, 12.
static const int max_instructions = 40;

static const int instruction_size = 4;

// What return_address_slot answers where it does not know.
static const int unknown = -1;

// Register numbers as instructions encode them (assembler_aarch64.hpp).
static const int reg_scratch1 = 8;    // rscratch1
static const int reg_scratch2 = 9;    // rscratch2
static const int reg_fp = 29;         // rfp
static const int reg_lr = 30;         // lr
static const int reg_sp_or_zr = 31;   // sp or zr, by instruction

static const uint32_t ret_lr = 0xd65f03c0;  // ret (x30)

// Pairs of 64-bit registers stored or loaded: the forms that build and pop a
// frame record, with x29 (Rt), x30 (Rt2) and sp (Rn).
static const uint32_t stp_offset = 0xa9000000;  // stp x, x, [sp, #imm]
static const uint32_t stp_pre    = 0xa9800000;  // stp x, x, [sp, #imm]!
static const uint32_t ldp_offset = 0xa9400000;  // ldp x, x, [sp, #imm]
static const uint32_t ldp_post   = 0xa8c00000;  // ldp x, x, [sp], #imm
static const uint32_t fp_lr_sp   = (reg_lr << 10) | (reg_sp_or_zr << 5) | reg_fp;

// What neutral_write answers besides a register number.
static const int no_register = -1;
static const int not_neutral = -2;

static int64_t signed_field(uint32_t insn, int lsb, int width) {
  uint64_t field = (insn >> lsb) & (((uint64_t)1 << width) - 1);
  return (int64_t)(field << (64 - width)) >> (64 - width);
}

static bool in_code(const AsgstCodeLayout& code, const u1* p) {
  return p >= code.begin && p + instruction_size <= code.end && is_aligned(p, instruction_size);
}

static uint32_t instruction_at(const u1* p) {
  uint32_t insn;
  memcpy(&insn, p, sizeof(insn));
  return insn;
}

// The values that a path put into rscratch1 and rscratch2 with instructions
// whose result it can compute: HotSpot's far jumps (adrp, add, br) and its
// large sp adjustments (movz, movk, then add or sub sp) go through them.
struct Scratch {
  uint64_t value[2];
  bool known[2];
};

static int scratch_index(int reg) {
  return reg == reg_scratch1 ? 0 : (reg == reg_scratch2 ? 1 : -1);
}

static bool scratch_value(const Scratch& s, int reg, uint64_t* value) {
  int i = scratch_index(reg);
  if (i < 0 || !s.known[i]) {
    return false;
  }
  *value = s.value[i];
  return true;
}

// The value that insn at p computes, from constants, p and the scratch
// registers: adr, adrp, movz, movn, movk and add (immediate), 64 bits.
static bool computed_value(const Scratch& s, uint32_t insn, const u1* p, uint64_t* value) {
  int rd = insn & 31;
  int shift = 16 * ((insn >> 21) & 3);
  uint64_t imm16 = (insn >> 5) & 0xffff;
  int64_t pc_relative = signed_field(insn, 5, 19) * 4 + ((insn >> 29) & 3);  // immhi:immlo
  uint64_t old = 0;
  if ((insn & 0x9f000000) == 0x10000000) {                                   // adr
    *value = (uint64_t)p + pc_relative;
  } else if ((insn & 0x9f000000) == 0x90000000) {                            // adrp
    *value = ((uint64_t)p & ~(uint64_t)0xfff) + pc_relative * 4096;
  } else if ((insn & 0xff800000) == 0xd2800000) {                            // movz
    *value = imm16 << shift;
  } else if ((insn & 0xff800000) == 0x92800000) {                            // movn
    *value = ~(imm16 << shift);
  } else if ((insn & 0xff800000) == 0xf2800000 && scratch_value(s, rd, &old)) {  // movk
    *value = (old & ~((uint64_t)0xffff << shift)) | (imm16 << shift);
  } else if ((insn & 0xff800000) == 0x91000000 && scratch_value(s, (insn >> 5) & 31, &old)) {  // add
    *value = old + (((insn >> 10) & 0xfff) << ((insn & (1u << 22)) != 0 ? 12 : 0));
  } else {
    return false;
  }
  return true;
}

// Records what insn at p wrote into register reg.
static void note_write(Scratch* s, uint32_t insn, const u1* p, int reg) {
  int i = scratch_index(reg);
  if (i >= 0) {
    uint64_t value = 0;
    s->known[i] = computed_value(*s, insn, p, &value);
    s->value[i] = value;
  }
}

static void forget_scratch(Scratch* s) {
  s->known[0] = false;
  s->known[1] = false;
}

// For an instruction that falls through and leaves sp, x29 and x30 alone
// (perhaps signing or authenticating x30 in place), among those that
// prologues, epilogues and their out-of-line stubs use: the general register
// it writes, or no_register. not_neutral for any other instruction.
static int neutral_write(uint32_t insn) {
  int rd = insn & 31;
  bool sets_flags = (insn & (1u << 29)) != 0;
  bool fp_simd = (insn & (1u << 26)) != 0;
  int result = not_neutral;
  if ((insn & 0xfffff01f) == 0xd503201f ||      // hint: nop, bti, pac and aut of x30, xpaclri
      (insn & 0xfffff01f) == 0xd503301f ||      // barrier: dmb, dsb, isb
      (insn & 0xff3ffc10) == 0x2518e000) {      // SVE ptrue (C2's reinitialize_ptrue)
    return no_register;
  } else if ((insn & 0x1f000000) == 0x10000000 ||   // adr, adrp
             (insn & 0x1f800000) == 0x12800000 ||   // movn, movz, movk
             (insn & 0x1f000000) == 0x13000000 ||   // bitfield, extract
             (insn & 0x1f000000) == 0x0a000000 ||   // logical (shifted register)
             (insn & 0x1f200000) == 0x0b000000 ||   // add, sub (shifted register)
             (insn & 0x1fe00000) == 0x1a800000) {   // conditional select
    result = rd;                                    // 31 is zr
  } else if ((insn & 0x1f800000) == 0x11000000 ||   // add, sub (immediate)
             (insn & 0x1f200000) == 0x0b200000) {   // add, sub (extended register)
    if (rd == reg_sp_or_zr && !sets_flags) {
      return not_neutral;                           // 31 is sp
    }
    result = rd;
  } else if ((insn & 0x1f800000) == 0x12000000) {   // logical (immediate)
    if (rd == reg_sp_or_zr && ((insn >> 29) & 3) != 3) {
      return not_neutral;                           // 31 is sp but for ands
    }
    result = rd;
  } else if ((insn & 0x1fe00000) == 0x1a400000) {   // conditional compare
    return no_register;
  } else if ((insn & 0x3b000000) == 0x39000000 ||   // load, store (unsigned offset)
             (insn & 0x3b200c00) == 0x38200800 ||   // load, store (register offset)
             (insn & 0x3b200c00) == 0x38000000) {   // load, store (unscaled: ldur, stur)
    // No writeback. x29 and x30 are loaded and stored only as a frame record.
    if (fp_simd) {
      return no_register;
    }
    if (rd == reg_fp || rd == reg_lr) {
      return not_neutral;
    }
    bool load = ((insn >> 22) & 3) != 0;
    result = load ? rd : no_register;
  } else if ((insn & 0x3b000000) == 0x18000000) {   // load (literal): the entry barrier's guard
    result = fp_simd ? no_register : rd;
  } else if ((insn & 0x3fdffc00) == 0x08dffc00) {   // load-acquire: ldar, ldarb, ldarh
    result = rd;
  } else if ((insn & 0x3fdffc00) == 0x089ffc00) {   // store-release: stlr, stlrb, stlrh
    result = rd == reg_fp || rd == reg_lr ? not_neutral : no_register;
  } else {
    return not_neutral;
  }
  if (result == reg_fp || result == reg_lr) {
    return not_neutral;
  }
  return result == reg_sp_or_zr ? no_register : result;
}

// The bytes that insn adds to sp (negative: subtracts), for add or sub of
// sp, sp and an immediate (shifted by 12 or not) or a scratch register
// whose value is known (uxtx or sxtx, no shift: the form that sp takes).
static bool sp_change(uint32_t insn, const Scratch& s, int64_t* bytes) {
  bool sub = (insn & (1u << 30)) != 0;
  int64_t amount = 0;
  uint64_t value = 0;
  if ((insn & 0xbf8003ff) == 0x910003ff) {
    amount = ((insn >> 10) & 0xfff) << ((insn & (1u << 22)) != 0 ? 12 : 0);
  } else if ((insn & 0xbfe07fff) == 0x8b2063ff && scratch_value(s, (insn >> 16) & 31, &value)) {
    amount = (int64_t)value;
  } else {
    return false;
  }
  *bytes = sub ? -amount : amount;
  return true;
}

// Whether insn is the pair x29, x30 at sp in form (stp_offset, ...); its
// offset in *words.
static bool is_record_pair(uint32_t insn, uint32_t form, int* words) {
  if ((insn & 0xffc07fff) != (form | fp_lr_sp)) {
    return false;
  }
  *words = (int)signed_field(insn, 15, 7);  // scaled by the register size
  return true;
}

// stp x29, x30 at sp; *pre: with sp moved to the record first.
static bool is_record_store(uint32_t insn, bool* pre, int* words) {
  *pre = is_record_pair(insn, stp_pre, words);
  return *pre || is_record_pair(insn, stp_offset, words);
}

// add x29, sp, #imm (mov x29, sp): the frame pointer set to the new record.
static bool sets_fp_from_sp(uint32_t insn) {
  return (insn & 0xffc003ff) == (0x910003e0 | reg_fp);
}

// bl, blr: the callee returns with sp as it was, but x30 overwritten.
static bool is_call(uint32_t insn) {
  return (insn & 0xfc000000) == 0x94000000 || (insn & 0xfffffc1f) == 0xd63f0000;
}

// Where a direct branch at p goes: b, b.cond, cbz, cbnz, tbz, tbnz.
static bool direct_branch(uint32_t insn, const u1* p, const u1** target, bool* conditional) {
  int64_t offset;
  if ((insn & 0xfc000000) == 0x14000000) {          // b
    offset = signed_field(insn, 0, 26);
    *conditional = false;
  } else if ((insn & 0xff000010) == 0x54000000) {   // b.cond; al and nv always branch
    offset = signed_field(insn, 5, 19);
    *conditional = (insn & 0xe) != 0xe;
  } else if ((insn & 0x7e000000) == 0x34000000) {   // cbz, cbnz
    offset = signed_field(insn, 5, 19);
    *conditional = true;
  } else if ((insn & 0x7e000000) == 0x36000000) {   // tbz, tbnz
    offset = signed_field(insn, 5, 14);
    *conditional = true;
  } else {
    return false;
  }
  *target = p + offset * instruction_size;
  return true;
}

// Where br through a scratch register goes (a far jump), if its value is known.
static bool indirect_jump(uint32_t insn, const Scratch& s, const u1** target) {
  uint64_t value = 0;
  if ((insn & 0xfffffc1f) != 0xd61f0000 || !scratch_value(s, (insn >> 5) & 31, &value)) {
    return false;
  }
  *target = (const u1*)value;
  return true;
}

// Whether a jump to target leaves a popped frame: the stubs that a returning
// frame jumps to (the return poll's safepoint stub, the exception stubs that
// a native wrapper, C1's unwind handler and C2's rethrow use) expect sp at
// the caller's sp and the return address in lr.
static bool is_stub_for_popped_frame(address target) {
  SafepointBlob* return_poll = SharedRuntime::polling_page_return_handler_blob();
  if ((return_poll != nullptr && target == return_poll->entry_point()) ||
      target == StubRoutines::forward_exception_entry()) {
    return true;
  }
#ifdef COMPILER1
  CodeBlob* unwind = Runtime1::blob_for(C1StubId::unwind_exception_id);
  if (unwind != nullptr && target == unwind->code_begin()) {
    return true;
  }
#endif
#ifdef COMPILER2
  if (OptoRuntime::rethrow_stub() != nullptr && target == OptoRuntime::rethrow_stub()) {
    return true;
  }
#endif
  return false;
}

// What the rest of a prologue does, from pc to the point where the frame is
// complete. Offsets are in words above the sp at pc.
struct PrologueRest {
  int words;            // words it still subtracts from sp
  bool stores_record;   // it still stores x29 and x30: lr holds the return address
  int record;           // where it stores them
  bool overwrites;      // it sets x29 or calls (x30 lost): only after the store
};

// Follows a prologue from p to complete (both ways of a conditional branch).
static bool follow_prologue(const AsgstCodeLayout& code, const u1* p, int* budget, PrologueRest* rest,
                            Scratch* scratch) {
  while (*budget > 0 && in_code(code, p)) {
    if (p == code.frame_complete) {
      return true;
    }
    (*budget)--;
    uint32_t insn = instruction_at(p);
    int written = neutral_write(insn);
    int64_t bytes = 0;
    int words = 0;
    bool pre = false;
    const u1* target = nullptr;
    bool conditional = false;
    if (sp_change(insn, *scratch, &bytes)) {
      if (bytes > 0 || bytes % wordSize != 0) {
        return false;                                // a prologue only grows the stack
      }
      rest->words += (int)(-bytes / wordSize);
    } else if (is_record_store(insn, &pre, &words)) {
      if (rest->stores_record || rest->overwrites || (pre && words >= 0)) {
        return false;
      }
      if (pre) {
        rest->words -= words;                        // sp moves to the record
        words = 0;
      }
      rest->stores_record = true;
      rest->record = words - rest->words;
    } else if (sets_fp_from_sp(insn)) {
      rest->overwrites = true;                       // PreserveFramePointer, or enter()
    } else if (is_call(insn)) {
      rest->overwrites = true;                       // the nmethod entry barrier's stub
      forget_scratch(scratch);
    } else if (written != not_neutral) {
      note_write(scratch, insn, p, written);
    } else if (direct_branch(insn, p, &target, &conditional)) {
      if (conditional) {
        PrologueRest not_taken = *rest;
        Scratch not_taken_scratch = *scratch;
        if (follow_prologue(code, p + instruction_size, budget, rest, scratch)) {
          return true;
        }
        *rest = not_taken;
        *scratch = not_taken_scratch;
      }
      p = target;
      continue;
    } else if (indirect_jump(insn, *scratch, &target)) {
      p = target;                                    // out of the code (the miss stubs): not followed
      continue;
    } else {
      return false;
    }
    p += instruction_size;
  }
  return false;
}

// The return address in a prologue: its slot, or in_link_register.
static int slot_in_prologue(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot, int* caller_sp_words) {
  if (code.frame_complete <= code.begin || pc >= code.frame_complete || code.frame_words < 2) {
    return unknown;
  }
  *saved_fp_slot = -1;
  if (pc < code.verified_entry) {
    // The inline cache check leaves the stack alone (unless oops are verified).
    *caller_sp_words = 0;
    return VerifyOops ? unknown : AsgstFrameEdges::in_link_register;
  }
  PrologueRest rest = { 0, false, 0, false };
  Scratch scratch = { { 0, 0 }, { false, false } };
  int budget = max_instructions;
  if (!follow_prologue(code, pc, &budget, &rest, &scratch)) {
    return unknown;
  }
  // The caller's sp, with the record just below it (frame::sender_sp_offset).
  int caller_sp = code.frame_words - rest.words;
  if (rest.stores_record) {
    if (caller_sp < 0 || rest.record != caller_sp - frame::sender_sp_offset) {
      return unknown;
    }
    *caller_sp_words = caller_sp;
    return AsgstFrameEdges::in_link_register;
  }
  if (caller_sp < frame::sender_sp_offset) {
    return unknown;
  }
  *saved_fp_slot = caller_sp - frame::sender_sp_offset + frame::link_offset;
  *caller_sp_words = caller_sp;
  return caller_sp - frame::sender_sp_offset + frame::return_addr_offset;
}

// What an epilogue does from pc to its return. Offsets are in words above
// the sp at pc.
struct EpilogueRest {
  int words;    // words it added to sp
  int record;   // where it reloads x29 and x30; -1: not on the path (reloaded before pc)
};

// Whether the instructions from p reach a ret, or a jump to a stub for a
// popped frame; both ways of a conditional branch are tried.
static bool follow_epilogue(const AsgstCodeLayout& code, const u1* p, int* budget, EpilogueRest* rest,
                            Scratch* scratch) {
  while (*budget > 0 && in_code(code, p)) {
    (*budget)--;
    uint32_t insn = instruction_at(p);
    int written = neutral_write(insn);
    int64_t bytes = 0;
    int words = 0;
    const u1* target = nullptr;
    bool conditional = false;
    if (insn == ret_lr) {
      return true;
    } else if (sp_change(insn, *scratch, &bytes)) {
      if (bytes < 0 || bytes % wordSize != 0) {
        return false;                                // an epilogue only shrinks the stack
      }
      rest->words += (int)(bytes / wordSize);
    } else if (is_record_pair(insn, ldp_offset, &words) && rest->record < 0) {
      rest->record = rest->words + words;
    } else if (is_record_pair(insn, ldp_post, &words) && rest->record < 0 && words > 0) {
      rest->record = rest->words;
      rest->words += words;
    } else if (written != not_neutral) {
      note_write(scratch, insn, p, written);
    } else if (direct_branch(insn, p, &target, &conditional)) {
      if (conditional) {
        EpilogueRest not_taken = *rest;
        Scratch not_taken_scratch = *scratch;
        if (follow_epilogue(code, p + instruction_size, budget, rest, scratch)) {
          return true;
        }
        *rest = not_taken;
        *scratch = not_taken_scratch;
      }
      if (!in_code(code, target)) {
        return is_stub_for_popped_frame((address)target);  // a far jump that is near: b
      }
      p = target;
      continue;
    } else if (indirect_jump(insn, *scratch, &target)) {
      if (!in_code(code, target)) {
        return is_stub_for_popped_frame((address)target);  // a far jump: adrp, add, br
      }
      p = target;
      continue;
    } else {
      return false;                                  // calls, x29 or x30 written, sp set otherwise
    }
    p += instruction_size;
  }
  return false;
}

// The return address in an epilogue: its slot, or in_link_register. Where
// the frame is still whole at pc (the reload comes while sp is below the
// record), a frame made from sp finds its caller: unknown.
static int slot_in_epilogue(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot, int* caller_sp_words) {
  EpilogueRest rest = { 0, -1 };
  Scratch scratch = { { 0, 0 }, { false, false } };
  int budget = max_instructions;
  if (!follow_epilogue(code, pc, &budget, &rest, &scratch)) {
    return unknown;
  }
  if (rest.words > code.frame_words) {
    return unknown;  // no epilogue pops more than its frame
  }
  if (rest.record < 0) {
    // Reloaded: lr holds the return address and x29 the caller's frame pointer.
    *saved_fp_slot = -1;
    *caller_sp_words = rest.words;
    return AsgstFrameEdges::in_link_register;
  }
  if (rest.record != 0 || rest.words != frame::sender_sp_offset) {
    return unknown;
  }
  // Only the record is left of the frame, at sp (ldp x29, x30, [sp], #16 next).
  *saved_fp_slot = frame::link_offset;
  *caller_sp_words = frame::sender_sp_offset;
  return frame::return_addr_offset;
}

int AsgstFrameEdges::return_address_slot(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot,
                                         int* caller_sp_words) {
  if (!in_code(code, pc)) {
    return unknown;
  }
  int slot = slot_in_prologue(code, pc, saved_fp_slot, caller_sp_words);
  return slot != unknown ? slot : slot_in_epilogue(code, pc, saved_fp_slot, caller_sp_words);
}

// C1 builds an OSR method's frame a second time at its OSR entry, after the
// normal entry's frame is complete, with the instructions that the normal
// prologue has from its stack bang on. The interpreter jumps there with its
// own frame popped and the return address in the link register. The OSR
// prologue is laid out as the normal one's where each of its instructions up
// to the store of the frame record equals the normal prologue's at the same
// distance from frame complete (the nmethod entry barrier after it holds a
// guard word that only the normal entry's barrier has set).
static bool osr_prologue(const AsgstCodeLayout& code, const u1* osr_entry, AsgstCodeLayout* osr) {
  if (osr_entry < code.frame_complete || code.frame_complete <= code.verified_entry || !in_code(code, osr_entry)) {
    return false;
  }
  uint32_t first = instruction_at(osr_entry);
  for (const u1* p = code.verified_entry; p < code.frame_complete; p += instruction_size) {
    size_t length = code.frame_complete - p;
    if (instruction_at(p) != first || !in_code(code, osr_entry + length - instruction_size)) {
      continue;
    }
    size_t i = 0;
    bool pre;
    int words;
    while (i < length && instruction_at(p + i) == instruction_at(osr_entry + i) &&
           !is_record_store(instruction_at(p + i), &pre, &words)) {
      i += instruction_size;
    }
    if (i < length && instruction_at(p + i) == instruction_at(osr_entry + i)) {
      *osr = code;
      osr->verified_entry = osr_entry;
      osr->frame_complete = osr_entry + length;
      return true;
    }
  }
  return false;
}

int AsgstFrameEdges::osr_return_address_slot(const AsgstCodeLayout& code, const u1* osr_entry, const u1* pc,
                                             int* saved_fp_slot, int* caller_sp_words) {
  AsgstCodeLayout osr;
  if (pc >= osr_entry && osr_prologue(code, osr_entry, &osr) && pc < osr.frame_complete) {
    return slot_in_prologue(osr, pc, saved_fp_slot, caller_sp_words);
  }
  return return_address_slot(code, pc, saved_fp_slot, caller_sp_words);
}

int AsgstFrameEdges::return_address_slot(const nmethod* nm, address pc, int* saved_fp_slot, int* caller_sp_words) {
  Method* method = nm->method();
  // Laid out by hand: enterSpecial has a second, interpreted entry before
  // its verified entry; method handle intrinsics have no frame. Both are
  // made as native wrappers are, never by C1 or C2: their code needs no look
  // at its Method.
  bool by_c1_or_c2 = nm->is_compiled_by_c1() || nm->is_compiled_by_c2();
  if (method == nullptr ||
      (!by_c1_or_c2 && (method->is_continuation_native_intrinsic() || method->is_method_handle_intrinsic()))) {
    return unknown;
  }
  AsgstCodeLayout code = { nm->insts_begin(), nm->insts_end(), nm->verified_entry_point(),
                           nm->code_begin() + nm->frame_complete_offset(), nm->frame_size() };
  if (nm->is_osr_method()) {
    return osr_return_address_slot(code, nm->osr_entry(), pc, saved_fp_slot, caller_sp_words);
  }
  return return_address_slot(code, pc, saved_fp_slot, caller_sp_words);
}

static const uint32_t blr_scratch1 = 0xd63f0000 | (reg_scratch1 << 5);

// The target of a far call's adrp and add through rscratch1 (adrp at p, as
// MacroAssembler::far_call emits them before blr), if they are those.
static bool far_call_target(uint32_t adrp_insn, uint32_t add_insn, const u1* p, uint64_t* target) {
  const uint32_t adrp_scratch1 = 0x90000000 | reg_scratch1;
  const uint32_t add_scratch1 = 0x91000000 | (reg_scratch1 << 5) | reg_scratch1;
  if ((adrp_insn & 0x9f00001f) != adrp_scratch1 || (add_insn & 0xffc003ff) != add_scratch1) {
    return false;
  }
  Scratch s;
  forget_scratch(&s);
  note_write(&s, adrp_insn, p, reg_scratch1);
  note_write(&s, add_insn, p + instruction_size, reg_scratch1);
  return scratch_value(s, reg_scratch1, target);
}

// Whether the instructions at p call target: bl, or the far call (adrp,
// add, blr through rscratch1); *length: its bytes.
static bool is_call_to(const AsgstCodeLayout& code, const u1* p, address target, int* length) {
  if (!in_code(code, p)) {
    return false;
  }
  uint32_t insn = instruction_at(p);
  if ((insn & 0xfc000000) == 0x94000000) {  // bl
    *length = instruction_size;
    return p + signed_field(insn, 0, 26) * instruction_size == (const u1*)target;
  }
  const u1* blr = p + 2 * instruction_size;
  uint64_t value = 0;
  *length = 3 * instruction_size;
  return in_code(code, blr) && instruction_at(blr) == blr_scratch1 &&
         far_call_target(insn, instruction_at(p + instruction_size), p, &value) && value == (uint64_t)target;
}

// stp x, x, [sp, #-16]! and its reverse, ldp x, x, [sp], #16 or ldr x, [sp], #16.
static bool is_push_of_two_words(const AsgstCodeLayout& code, const u1* p) {
  return in_code(code, p) && (instruction_at(p) & 0xffff83e0) == (stp_pre | (0x7eu << 15) | (reg_sp_or_zr << 5));
}

static bool is_pop_of_two_words(const AsgstCodeLayout& code, const u1* p) {
  const uint32_t ldr_post = 0xf8400400;
  if (!in_code(code, p)) {
    return false;
  }
  uint32_t insn = instruction_at(p);
  return (insn & 0xffff83e0) == (ldp_post | (2u << 15) | (reg_sp_or_zr << 5)) ||
         (insn & 0xffffffe0) == (ldr_post | (16u << 12) | (reg_sp_or_zr << 5));
}

// C1 calls the stub as stp (two words pushed), the call, then ldp or ldr
// (popped): pushed from the call's first instruction to the pop.
int AsgstFrameEdges::words_pushed_for_call(const AsgstCodeLayout& code, const u1* pc, address callee) {
  const int pushed = 2;
  const int longest_call = 3;  // instructions of a far call
  int length = 0;
  for (int back = 0; back < longest_call; back++) {  // pc at the call
    const u1* call = pc - back * instruction_size;
    if (is_call_to(code, call, callee, &length) && pc < call + length &&
        is_push_of_two_words(code, call - instruction_size) && is_pop_of_two_words(code, call + length)) {
      return pushed;
    }
  }
  if (is_pop_of_two_words(code, pc) && is_push_of_two_words(code, pc - 2 * instruction_size) &&
      is_call_to(code, pc - instruction_size, callee, &length) && length == instruction_size) {
    return pushed;  // returned from bl
  }
  if (is_pop_of_two_words(code, pc) && is_push_of_two_words(code, pc - (longest_call + 1) * instruction_size) &&
      is_call_to(code, pc - longest_call * instruction_size, callee, &length) &&
      length == longest_call * instruction_size) {
    return pushed;  // returned from the far call
  }
  return 0;
}

// C and C++ functions (GCC and Clang with frame pointers, perhaps with
// -mbranch-protection): a frame record opened by stp x29, x30, [sp, #-n]!
// (or by sub sp, sp, #n and stp x29, x30, [sp, #m]), closed before ret.

static const uint32_t bti_c = 0xd503245f;
static const uint32_t paciasp = 0xd503233f;
static const uint32_t pacibsp = 0xd503237f;
static const uint32_t autiasp = 0xd50323bf;
static const uint32_t autibsp = 0xd50323ff;
static const uint32_t retaa = 0xd65f0bff;
static const uint32_t retab = 0xd65f0fff;
static const uint32_t mov_fp_sp = 0x910003e0 | reg_fp;  // mov x29, sp

// The instruction at p, read with SafeFetch (0, udf, where unreadable).
static uint32_t fetch_instruction(address p) {
  return (uint32_t)SafeFetch32((int*)p, 0);
}

// sub (or add) sp, sp, #imm without shift: *words the bytes in words.
static bool is_sp_immediate(uint32_t insn, bool sub, int* words) {
  uint32_t form = sub ? 0xd10003ff : 0x910003ff;
  int bytes = (insn >> 10) & 0xfff;
  if ((insn & 0xffc003ff) != form || bytes % wordSize != 0) {
    return false;
  }
  *words = bytes / wordSize;
  return true;
}

// bl reaches 128 MB; generated code calls code farther away through a
// trampoline (MacroAssembler::trampoline_call: ldr x8, #8; br x8; the
// target's address) or with a far call (adrp, add, blr through x8).
bool AsgstFrameEdges::returns_from_call_into(address pc, address begin, address end) {
  const uint32_t trampoline_load = 0x58000040 | reg_scratch1;             // ldr x8, #8
  const uint32_t trampoline_jump = 0xd61f0000 | (reg_scratch1 << 5);      // br x8
  const int trampoline_data = 2 * instruction_size;
  if (pc == nullptr || !is_aligned(pc, instruction_size)) {
    return false;
  }
  address call = pc - instruction_size;
  uint32_t insn = fetch_instruction(call);
  if ((insn & 0xfc000000) == 0x94000000) {  // bl
    address target = call + signed_field(insn, 0, 26) * instruction_size;
    if (target >= begin && target < end) {
      return true;
    }
    if (fetch_instruction(target) != trampoline_load || fetch_instruction(target + instruction_size) != trampoline_jump) {
      return false;
    }
    address destination = (address)SafeFetchN((intptr_t*)(target + trampoline_data), 0);
    return destination >= begin && destination < end;
  }
  address adrp = pc - 3 * instruction_size;
  uint64_t target = 0;
  return insn == blr_scratch1 &&
         far_call_target(fetch_instruction(adrp), fetch_instruction(adrp + instruction_size), adrp, &target) &&
         (address)target >= begin && (address)target < end;
}

// Whether p holds a ret, perhaps after an authentication hint.
static bool is_function_return(address p) {
  uint32_t insn = fetch_instruction(p);
  if (insn == autiasp || insn == autibsp) {
    insn = fetch_instruction(p + instruction_size);
  }
  return insn == ret_lr || insn == retaa || insn == retab;
}

// Where the caller of the function at pc is when x29 still (or again) names
// the caller's frame: its return address in lr (*in_lr) or at sp + 1, and
// its sp *caller_sp_words above sp. x29 at sp (fp) must match after a push.
static bool frameless_at(const AsgstNativeFrame& f, bool* in_lr, int* caller_sp_words) {
  address pc = f.pc;
  uint32_t insn = fetch_instruction(pc);
  for (int i = 0; i < 2 && (insn == bti_c || insn == paciasp || insn == pacibsp); i++) {
    pc += instruction_size;
    insn = fetch_instruction(pc);
  }
  uint32_t next = fetch_instruction(pc + instruction_size);
  uint32_t previous = fetch_instruction(f.pc - instruction_size);
  int words = 0;
  int n = 0;
  *in_lr = true;
  if ((is_record_pair(insn, stp_pre, &words) && words < 0) ||
      (is_sp_immediate(insn, true, &n) && is_record_pair(next, stp_offset, &words) && words + 2 <= n)) {
    *caller_sp_words = 0;                            // the first instruction
    return true;
  }
  if (pc != f.pc) {
    return false;                                    // a hint then anything else
  }
  if (insn == mov_fp_sp && is_record_pair(previous, stp_pre, &words) && words < 0 &&
      SafeFetchN(f.sp, 0) == (intptr_t)f.fp) {
    *in_lr = false;                                  // just after the push
    *caller_sp_words = -words;
    return true;
  }
  if (is_record_pair(insn, stp_offset, &words) && is_sp_immediate(previous, true, &n) && words + 2 <= n) {
    *caller_sp_words = n;                            // sp lowered, the record not stored yet
    return true;
  }
  if (is_function_return(pc)) {
    *caller_sp_words = 0;
    return true;
  }
  if (is_sp_immediate(insn, false, &n) && is_function_return(pc + instruction_size)) {
    *caller_sp_words = n;                            // x29 reloaded, sp raised next
    return true;
  }
  return false;
}

AsgstFrameEdges::Frameless AsgstFrameEdges::caller_of_frameless(const AsgstNativeFrame& f, AsgstNativeFrame* caller) {
  if (f.pc == nullptr || f.sp == nullptr || !is_aligned(f.pc, instruction_size) || !is_aligned(f.sp, wordSize)) {
    return has_frame;
  }
  bool in_lr = true;
  int caller_sp_words = 0;
  if (!frameless_at(f, &in_lr, &caller_sp_words)) {
    return has_frame;
  }
  address pc = in_lr ? f.lr : (address)SafeFetchN(f.sp + frame::return_addr_offset, 0);
  if (pc == nullptr) {
    return caller_unknown;                           // no lr in the context, or unreadable
  }
  caller->pc = strip_return_address(pc);
  caller->sp = f.sp + caller_sp_words;
  caller->fp = f.fp;
  caller->lr = nullptr;                              // lr belongs to the callee
  return caller_found;
}

// A C function's frame record (saved x29, then x30) is where x29 points, as
// HotSpot's own are. GCC and Clang put it at the bottom of the function's
// frame, below its locals: the caller's sp lies at or above the word past
// the record, which is all that the record tells (frame::sender_sp() takes
// the same word).
bool AsgstFrameEdges::c_frame_record(intptr_t* fp, intptr_t** return_address, intptr_t** saved_fp,
                                     intptr_t** caller_sp) {
  *return_address = fp + frame::return_addr_offset;
  *saved_fp = fp + frame::link_offset;
  *caller_sp = fp + frame::sender_sp_offset;
  return true;
}

// GCC saves the record at the bottom of the frame, below the locals and the
// saved registers: how far the caller's sp lies above it only the unwind
// information tells.
bool AsgstFrameEdges::c_frame_record_gives_caller_sp() {
  return false;
}

// A call leaves the return address in lr.
bool AsgstFrameEdges::return_address_at_callee_sp() {
  return false;
}

// The interpreter keeps, relative to fp, its expression stack pointer (esp)
// at the call in the frame's last sp slot (negative while in a call). The
// machine sp of the call lies at or below it.
bool AsgstFrameEdges::interpreted_call_sp(intptr_t* fp, intptr_t** call_sp) {
  intptr_t relative_last_sp = SafeFetchN(fp + frame::interpreter_frame_last_sp_offset, 0);
  if (relative_last_sp >= 0) {
    return false;
  }
  *call_sp = fp + relative_last_sp;
  return true;
}

// frame::safe_for_sender ends, for an interpreted sender, with the sender's
// is_interpreted_frame_valid.
bool AsgstFrameEdges::sender_check_validates_interpreted_frames() {
  return true;
}

// A return poll traps when the register it compares is above the poll word
// (MacroAssembler::safepoint_poll): the interpreter's remove_activation
// compares rfp, which is key for an interpreted frame; compiled code
// compares sp after popping its frame, which is the caller's sp, key
// itself (unextended sp plus the frame's size). A return into the frame or
// above it compares at most key - 2 words: a compiled callee compares its
// caller's sp, the frame's own sp, at least the frame's record (2 words)
// below key; an interpreted callee compares its fp, the address of its own
// record, below that sp. Two words below key is even (polls that are not
// return polls test only bit 0): returns into the frame pass (the compare
// traps only above), the frame's own return traps.
uintptr_t AsgstFrameEdges::return_barrier_below(uintptr_t key) {
  return key - 2 * wordSize;
}

// C1's and C2's return polls compare sp with the poll word
// (MacroAssembler::safepoint_poll at a return); their loop polls load from
// the polling page.
bool AsgstFrameEdges::compiled_return_polls_read_poll_word() {
  return true;
}

// With PreserveFramePointer, frame::sender_for_compiled_frame takes the
// caller's sp from fp unless the frame's sp is trusted (which a walk's
// frames never are).
bool AsgstFrameEdges::compiled_sender_reads_fp() {
  return PreserveFramePointer;
}

// lr of a signal handler's context (x30).
address AsgstFrameEdges::link_register(const void* ucontext) {
#ifdef LINUX
  const ucontext_t* uc = (const ucontext_t*)ucontext;
  return uc == nullptr ? nullptr : (address)uc->uc_mcontext.regs[reg_lr];
#else
  return nullptr;  // not read on other systems yet
#endif
}

// Stripped, never authenticated: a walk may read garbage, and C code may
// sign with another key or modifier than generated code. (xpaclri is a hint:
// without pointer authentication it leaves the value as it is.)
address AsgstFrameEdges::strip_return_address(address pc) {
  return pauth_strip_pointer(pc);
}

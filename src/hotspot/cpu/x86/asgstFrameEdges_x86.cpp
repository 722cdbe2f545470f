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

#include "code/nmethod.hpp"
#include "oops/method.inline.hpp"
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


// Longest path followed from pc: prologues and epilogues are a few instructions.
static const int max_instructions = 24;

static bool in_code(const AsgstCodeLayout& code, const u1* p) {
  return p >= code.begin && p < code.end;
}

// The byte at p + i, or -1 past the end.
static int byte_at(const AsgstCodeLayout& code, const u1* p, int i) {
  return p + i < code.end ? p[i] : -1;
}

static int32_t int32_at(const u1* p) {
  int32_t value;
  memcpy(&value, p, sizeof(value));
  return value;
}

// The length of a nop at p (0x90 or 0f 1f /0, after 0x66 prefixes), or 0.
static int length_of_nop(const AsgstCodeLayout& code, const u1* p) {
  int n = 0;
  while (n < 4 && byte_at(code, p, n) == 0x66) {
    n++;
  }
  if (byte_at(code, p, n) == 0x90) {
    return n + 1;
  }
  int modrm = byte_at(code, p, n + 2);
  if (byte_at(code, p, n) != 0x0f || byte_at(code, p, n + 1) != 0x1f || modrm < 0 || (modrm >> 6) == 3) {
    return 0;
  }
  int mod = modrm >> 6;
  int rm = modrm & 7;
  int sib = byte_at(code, p, n + 3);
  if (mod == 0 && (rm == 5 || (rm == 4 && (sib < 0 || (sib & 7) == 5)))) {
    return 0;  // a displacement without base: not a form that HotSpot emits
  }
  int length = n + 3 + (rm == 4 ? 1 : 0) + (mod == 1 ? 1 : (mod == 2 ? 4 : 0));
  return p + length <= code.end ? length : 0;
}

// The length of an instruction at p that leaves rsp and rbp as they are and
// falls through, among those that prologues, epilogues and their stubs use
// (compares, tests and stores relative to r15, the thread; constants loaded
// into other registers), or 0.
static int length_of_neutral_instruction(const AsgstCodeLayout& code, const u1* p) {
  int nop = length_of_nop(code, p);
  if (nop > 0) {
    return nop;
  }
  int rex = byte_at(code, p, 0);
  int opcode = byte_at(code, p, 1);
  if ((rex == 0x49 || (rex == 0x48 && opcode != 0xbc && opcode != 0xbd)) && opcode >= 0xb8 && opcode <= 0xbf) {
    return p + 10 <= code.end ? 10 : 0;  // mov reg, imm64 (never rsp or rbp)
  }
  int modrm = byte_at(code, p, 2);
  if (modrm < 0) {
    return 0;
  }
  int mod = modrm >> 6;
  int reg = (modrm >> 3) & 7;
  // [r15 + disp8] or [r15 + disp32]: REX.B set, rm 111, no SIB.
  bool r15_based = (rex & 0x41) == 0x41 && (modrm & 7) == 7 && (mod == 1 || mod == 2);
  int r15_length = 3 + (mod == 1 ? 1 : 4);
  int length = 0;
  if (rex == 0x49 && opcode == 0x3b && reg == 4 && r15_based) {
    length = r15_length;                 // cmp rsp, [r15 + d]: the return poll
  } else if (rex == 0x41 && opcode == 0xf6 && reg == 0 && r15_based) {
    length = r15_length + 1;             // test byte [r15 + d], imm8: a native wrapper's poll
  } else if ((rex == 0x41 || rex == 0x49) && opcode == 0x83 && reg == 7 && r15_based) {
    length = r15_length + 1;             // cmp [r15 + d], imm8: pending exception check
  } else if ((rex == 0x41 || rex == 0x49) && opcode == 0x81 && reg == 7 && r15_based) {
    length = r15_length + 4;             // cmp [r15 + d], imm32: nmethod entry barrier
  } else if ((rex == 0x49 || rex == 0x4d) && opcode == 0x89 && r15_based) {
    length = r15_length;                 // mov [r15 + d], reg: a poll's saved pc
  }
  return p + length <= code.end ? length : 0;
}

// Whether a jump to target leaves a popped frame: the stubs that a returning
// frame jumps to (the return poll's safepoint stub, the exception stubs that
// a native wrapper, C1's unwind handler and C2's rethrow use) expect sp at
// its return address.
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

// Whether the instructions from p reach a ret, or a jump to a stub for a
// popped frame, through instructions that leave rsp alone. Both ways of a
// conditional jump are tried.
static bool leads_to_return(const AsgstCodeLayout& code, const u1* p, int* budget) {
  while (*budget > 0 && in_code(code, p)) {
    (*budget)--;
    int b0 = byte_at(code, p, 0);
    int b1 = byte_at(code, p, 1);
    int length = length_of_neutral_instruction(code, p);
    if (b0 == 0xc3) {
      return true;                                                   // ret
    } else if (length > 0) {
      p += length;
    } else if (b0 >= 0x70 && b0 <= 0x7f && b1 >= 0) {              // jcc rel8
      return leads_to_return(code, p + 2, budget) || leads_to_return(code, p + 2 + (int8_t)b1, budget);
    } else if (b0 == 0x0f && b1 >= 0x80 && b1 <= 0x8f && p + 6 <= code.end) {  // jcc rel32
      return leads_to_return(code, p + 6, budget) || leads_to_return(code, p + 6 + int32_at(p + 2), budget);
    } else if (b0 == 0xeb && b1 >= 0) {                              // jmp rel8
      p += 2 + (int8_t)b1;
    } else if (b0 == 0xe9 && p + 5 <= code.end) {                    // jmp rel32
      const u1* target = p + 5 + int32_at(p + 1);
      if (!in_code(code, target)) {
        return is_stub_for_popped_frame((address)target);
      }
      p = target;
    } else {
      return false;
    }
  }
  return false;
}

// What the rest of a prologue does to the stack, from p to the point where
// the frame is complete.
struct PrologueRest {
  int words;         // words it will still push or subtract from rsp
  bool saves_fp;     // it will still save rbp
};

// Follows a prologue from p to complete (both ways of a conditional jump;
// calls, such as the nmethod entry barrier's, return with rsp as it was).
static bool follow_prologue(const AsgstCodeLayout& code, const u1* p, const u1* complete, int* budget, PrologueRest* rest) {
  while (*budget > 0 && in_code(code, p)) {
    if (p == complete) {
      return true;
    }
    (*budget)--;
    int b0 = byte_at(code, p, 0);
    int b1 = byte_at(code, p, 1);
    int b2 = byte_at(code, p, 2);
    int b3 = byte_at(code, p, 3);
    int length = length_of_neutral_instruction(code, p);
    if (b0 == 0x55) {                                                   // push rbp
      rest->words++;
      rest->saves_fp = true;
      p += 1;
    } else if (b0 == 0x48 && b1 == 0x83 && b2 == 0xec && b3 >= 0 && (b3 & 7) == 0 && b3 < 0x80) {
      rest->words += b3 / wordSize;                                     // sub rsp, imm8
      p += 4;
    } else if (b0 == 0x48 && b1 == 0x81 && b2 == 0xec && p + 7 <= code.end &&
               int32_at(p + 3) >= 0 && (int32_at(p + 3) & 7) == 0) {
      rest->words += int32_at(p + 3) / wordSize;                        // sub rsp, imm32
      p += 7;
    } else if (b0 == 0x48 && b1 == 0x89 && (b2 == 0x6c || b2 == 0xac) && b3 == 0x24) {
      rest->saves_fp = true;                                            // mov [rsp + d], rbp
      p += b2 == 0x6c ? 5 : 8;
    } else if (b0 == 0x48 && ((b1 == 0x8b && b2 == 0xec) || (b1 == 0x89 && b2 == 0xe5))) {
      p += 3;                                                           // mov rbp, rsp
    } else if (b0 == 0x48 && b1 == 0x83 && b2 == 0xc5) {
      p += 4;                                                           // add rbp, imm8
    } else if (b0 == 0x48 && b1 == 0x81 && b2 == 0xc5) {
      p += 7;                                                           // add rbp, imm32
    } else if (b0 == 0x89 && b1 == 0x84 && b2 == 0x24) {
      p += 7;                                                           // mov [rsp + d32], eax: stack bang
    } else if (length > 0) {
      p += length;
    } else if (b0 == 0xe8) {
      p += 5;                                                           // call rel32
    } else if ((b0 >= 0x70 && b0 <= 0x7f && b1 >= 0) || (b0 == 0x0f && b1 >= 0x80 && b1 <= 0x8f)) {
      int size = b0 == 0x0f ? 6 : 2;                                    // jcc
      if (p + size > code.end) {
        return false;
      }
      const u1* target = p + size + (b0 == 0x0f ? int32_at(p + 2) : (int8_t)b1);
      PrologueRest taken = *rest;
      if (follow_prologue(code, p + size, complete, budget, rest)) {
        return true;
      }
      *rest = taken;
      return follow_prologue(code, target, complete, budget, rest);
    } else if (b0 == 0xeb && b1 >= 0) {
      p += 2 + (int8_t)b1;                                              // jmp rel8
    } else if (b0 == 0xe9 && p + 5 <= code.end) {
      p += 5 + int32_at(p + 1);                                         // jmp rel32
    } else {
      return false;
    }
  }
  return false;
}

// Words above sp of the return address in an epilogue, or -1.
static int slot_in_epilogue(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot) {
  const int pop_rbp = 0x5d;
  int budget = max_instructions;
  if (byte_at(code, pc, 0) == pop_rbp) {
    // Only the saved frame pointer is left of the frame.
    *saved_fp_slot = 0;
    return leads_to_return(code, pc + 1, &budget) ? 1 : -1;
  }
  *saved_fp_slot = -1;
  return leads_to_return(code, pc, &budget) ? 0 : -1;
}

// Words above sp of the return address in a prologue, or -1.
static int slot_in_prologue(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot) {
  if (code.frame_complete <= code.begin || pc >= code.frame_complete || code.frame_words < 2) {
    return -1;
  }
  *saved_fp_slot = -1;
  if (pc < code.verified_entry) {
    // The inline cache check leaves the stack alone (unless oops are verified).
    return VerifyOops ? -1 : 0;
  }
  PrologueRest rest = { 0, false };
  int budget = max_instructions;
  if (!follow_prologue(code, pc, code.frame_complete, &budget, &rest) || rest.words > code.frame_words - 1) {
    return -1;
  }
  int slot = code.frame_words - 1 - rest.words;
  if (!rest.saves_fp && slot >= 1) {
    *saved_fp_slot = slot - 1;  // saved below the return address
  }
  return slot;
}

// The caller's sp begins just above the return address that the call pushed.
int AsgstFrameEdges::return_address_slot(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot,
                                         int* caller_sp_words) {
  if (!in_code(code, pc)) {
    return -1;
  }
  int slot = slot_in_prologue(code, pc, saved_fp_slot);
  if (slot < 0) {
    slot = slot_in_epilogue(code, pc, saved_fp_slot);
  }
  *caller_sp_words = slot + 1;
  return slot;
}

// C1 builds an OSR method's frame a second time at its OSR entry, after the
// normal entry's frame is complete (its build_frame: stack bang, push rbp,
// sub rsp, then the entry barrier). The interpreter jumps there with its own
// frame popped and the return address at sp. Followed from the OSR entry to
// pc, the prologue tells how much of the frame is built; rbp, pushed first,
// lies just below the return address.
static int slot_after_osr_entry(const AsgstCodeLayout& code, const u1* osr_entry, const u1* pc, int* saved_fp_slot) {
  if (osr_entry < code.frame_complete || pc < osr_entry || !in_code(code, osr_entry) || code.frame_words < 2) {
    return -1;
  }
  PrologueRest built = { 0, false };
  int budget = max_instructions;
  if (!follow_prologue(code, osr_entry, pc, &budget, &built) || built.words >= code.frame_words - 1) {
    return -1;  // past the OSR prologue, or pc not reached through it
  }
  *saved_fp_slot = built.saves_fp ? built.words - 1 : -1;
  return built.words;
}

int AsgstFrameEdges::osr_return_address_slot(const AsgstCodeLayout& code, const u1* osr_entry, const u1* pc,
                                             int* saved_fp_slot, int* caller_sp_words) {
  int slot = slot_after_osr_entry(code, osr_entry, pc, saved_fp_slot);
  if (slot < 0) {
    return return_address_slot(code, pc, saved_fp_slot, caller_sp_words);
  }
  *caller_sp_words = slot + 1;
  return slot;
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
    return -1;
  }
  AsgstCodeLayout code = { nm->insts_begin(), nm->insts_end(), nm->verified_entry_point(),
                           nm->code_begin() + nm->frame_complete_offset(), nm->frame_size() };
  if (nm->is_osr_method() && nm->is_compiled_by_c1()) {
    return osr_return_address_slot(code, nm->osr_entry(), pc, saved_fp_slot, caller_sp_words);
  }
  return return_address_slot(code, pc, saved_fp_slot, caller_sp_words);
}

// The length of a push (base 0x50) or pop (base 0x58) of a general register
// at p (r8-r15 after REX.B), or 0.
static int length_of_push_or_pop(const AsgstCodeLayout& code, const u1* p, int base) {
  if (!in_code(code, p)) {
    return 0;
  }
  int b0 = byte_at(code, p, 0);
  int register_byte = b0 == 0x41 ? byte_at(code, p, 1) : b0;
  if (register_byte < base || register_byte >= base + 8) {
    return 0;
  }
  return b0 == 0x41 ? 2 : 1;
}

// Whether p holds call rel32 to target.
static bool is_call_to(const AsgstCodeLayout& code, const u1* p, address target) {
  return in_code(code, p) && p + 5 <= code.end && p[0] == 0xe8 && p + 5 + int32_at(p + 1) == (const u1*)target;
}

// C1 calls the stub as push; push; call; pop; pop (two words pushed from
// the second push to the second pop). The pushes are counted forward from
// pc to the call; after the call, the pops that lie between it and pc back.
int AsgstFrameEdges::words_pushed_for_call(const AsgstCodeLayout& code, const u1* pc, address callee) {
  const int pushed = 2;
  const int call_length = 5;
  const int push = 0x50;
  const int pop = 0x58;
  const u1* p = pc;
  int pushes_left = 0;
  while (pushes_left < pushed && length_of_push_or_pop(code, p, push) > 0) {
    p += length_of_push_or_pop(code, p, push);
    pushes_left++;
  }
  if (is_call_to(code, p, callee)) {
    return pushed - pushes_left;
  }
  if (length_of_push_or_pop(code, pc, pop) == 0) {
    return 0;
  }
  if (pc - call_length >= code.begin && is_call_to(code, pc - call_length, callee)) {
    return pushed;  // at the first pop
  }
  for (int length = 1; length <= 2; length++) {  // at the second pop, after the first
    const u1* first_pop = pc - length;
    if (first_pop - call_length >= code.begin && length_of_push_or_pop(code, first_pop, pop) == length &&
        is_call_to(code, first_pop - call_length, callee)) {
      return pushed - 1;
    }
  }
  return 0;
}

// The byte at p, read with SafeFetch; -1 where unreadable.
static int fetched_byte(address p) {
  const int unreadable = 0x7fffffff;
  int word = SafeFetch32((int*)p, unreadable);
  return word == unreadable ? -1 : (word & 0xff);
}

// Whether a call r (ff d0+r; 41 ff d0+r for r8-r15) of length bytes ends
// at pc, just after mov r, imm64 (48 b8+r; 49 b8+r) of a target in range:
// C2 calls the runtime and stubs so (Java_To_Runtime).
static bool returns_from_register_call_into(address pc, int length, address begin, address end) {
  const int mov_length = 10;
  int modrm = fetched_byte(pc - 1);
  bool high = length == 3;
  if ((high && fetched_byte(pc - 3) != 0x41) || fetched_byte(pc - 2) != 0xff || modrm < 0 || (modrm & 0xf8) != 0xd0) {
    return false;
  }
  address mov = pc - length - mov_length;
  if (fetched_byte(mov) != (high ? 0x49 : 0x48) || fetched_byte(mov + 1) != 0xb8 + (modrm & 7)) {
    return false;
  }
  address target = (address)SafeFetchN((intptr_t*)(mov + 2), 0);
  return target >= begin && target < end;
}

// Generated code calls code in reach with call rel32, and C2 through a
// register.
bool AsgstFrameEdges::returns_from_call_into(address pc, address begin, address end) {
  const int call_length = 5;
  const int call_rel32 = 0xe8;
  if (pc == nullptr) {
    return false;
  }
  if (fetched_byte(pc - call_length) == call_rel32) {
    address target = pc + SafeFetch32((int*)(pc - sizeof(int32_t)), 0);
    if (target >= begin && target < end) {
      return true;
    }
  }
  return returns_from_register_call_into(pc, 2, begin, end) || returns_from_register_call_into(pc, 3, begin, end);
}

// At a C function's first instruction (push %rbp of the frame-pointer
// prologue, perhaps after endbr64), at the second (the push done), or at a
// ret, the frame pointer still (or again) names the caller's frame, and the
// return address lies at sp, or one word higher after the push. The
// prologue's mov %rsp,%rbp as compilers encode it (48 89 e5) or as
// HotSpot's enter() does (48 8b ec), for stubs.
AsgstFrameEdges::Frameless AsgstFrameEdges::caller_of_frameless(const AsgstNativeFrame& f, AsgstNativeFrame* caller) {
  const uint64_t push_rbp_mov_rbp_rsp = 0xe5894855;   // 55 48 89 e5
  const uint64_t push_rbp_enter_mov = 0xec8b4855;     // 55 48 8b ec
  const uint64_t endbr64 = 0xfa1e0ff3;                // f3 0f 1e fa
  const uint64_t mov_rbp_rsp = 0xe58948;              // 48 89 e5
  const uint64_t enter_mov = 0xec8b48;                // 48 8b ec
  if (f.pc == nullptr || f.sp == nullptr || !is_aligned(f.sp, wordSize)) {
    return has_frame;
  }
  uint64_t code = (uint64_t)SafeFetchN((intptr_t*)f.pc, 0);
  int return_address_slot;
  if ((code & 0xffffffff) == push_rbp_mov_rbp_rsp || (code & 0xffffffff) == push_rbp_enter_mov ||
      ((code & 0xffffffff) == endbr64 && (code >> 32) == push_rbp_mov_rbp_rsp) ||
      (code & 0xff) == 0xc3 || (code & 0xffff) == 0xc3f3) {  // ret, rep ret
    return_address_slot = 0;
  } else if (((code & 0xffffff) == mov_rbp_rsp || (code & 0xffffff) == enter_mov) &&
             (SafeFetch32((int*)(f.pc - 1), 0) & 0xff) == 0x55 &&
             SafeFetchN(f.sp, 0) == (intptr_t)f.fp) {
    return_address_slot = 1;  // just after push %rbp: the pushed frame pointer is at sp
  } else {
    return has_frame;
  }
  address pc = (address)SafeFetchN(f.sp + return_address_slot, 0);
  if (pc == nullptr) {
    return caller_unknown;
  }
  caller->pc = pc;
  caller->sp = f.sp + return_address_slot + 1;
  caller->fp = f.fp;
  return caller_found;
}

// A C function's prologue pushes rbp below the return address and points
// rbp at it, as HotSpot's own frames do.
bool AsgstFrameEdges::c_frame_record(intptr_t* fp, intptr_t** return_address, intptr_t** saved_fp,
                                     intptr_t** caller_sp) {
  *return_address = fp + frame::return_addr_offset;
  *saved_fp = fp + frame::link_offset;
  *caller_sp = fp + frame::sender_sp_offset;
  return true;
}

// The record lies just below the caller's sp.
bool AsgstFrameEdges::c_frame_record_gives_caller_sp() {
  return true;
}

// A call pushes its return address.
bool AsgstFrameEdges::return_address_at_callee_sp() {
  return true;
}

// No link register: a return address is always in memory.
address AsgstFrameEdges::link_register(const void* ucontext) {
  return nullptr;
}

// Return addresses are not signed.
address AsgstFrameEdges::strip_return_address(address pc) {
  return pc;
}

// frame::sender takes a compiled frame's caller from its size alone.
bool AsgstFrameEdges::compiled_sender_reads_fp() {
  return false;
}

// The interpreter keeps the sp of a call it makes, relative to fp, in the
// frame's last sp slot (negative while in a call).
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
// compares rbp, which is key for an interpreted frame; compiled code
// compares rsp after popping its frame, key - 1 word. A return into the
// frame or above it compares at most key - 3 words: the callee's frame lies
// below the return address and saved rbp it pushed below the caller's sp.
// Two words below key is even (polls that are not return polls test only
// bit 0) and lies between the two.
uintptr_t AsgstFrameEdges::return_barrier_below(uintptr_t key) {
  return key - 2 * wordSize;
}

// C1's and C2's return polls compare rsp with the poll word
// (MacroAssembler::safepoint_poll at a return); their loop polls load from
// the polling page.
bool AsgstFrameEdges::compiled_return_polls_read_poll_word() {
  return true;
}

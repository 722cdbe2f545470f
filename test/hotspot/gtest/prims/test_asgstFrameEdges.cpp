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

#include "nmt/memTag.hpp"
#include "prims/asgstFrameEdges.hpp"
#include "runtime/globals.hpp"
#include "runtime/os.hpp"
#include "unittest.hpp"

#ifdef AMD64

// Instruction bytes as HotSpot 25 emits them on x86_64 (from -XX:+PrintNMethods).

// A native wrapper's tail after leave: the JFR return poll (its slow path
// jumps to a stub that is out of reach here), the pending exception check,
// ret, and the jump to the forward-exception stub.
static const u1 wrapper_tail[] = {
  0xc9,                                            //  0: leave
  0x41, 0xf6, 0x47, 0x28, 0x01,                    //  1: test byte [r15+0x28], 1
  0x74, 0x16,                                      //  6: je 30
  0x49, 0xba, 1, 2, 3, 4, 5, 6, 7, 8,              //  8: mov r10, imm64
  0x4d, 0x89, 0x97, 0x40, 0x05, 0x00, 0x00,        // 18: mov [r15+0x540], r10
  0xe9, 0x00, 0x00, 0x00, 0x40,                    // 25: jmp (far)
  0x49, 0x83, 0x7f, 0x08, 0x00,                    // 30: cmp qword [r15+8], 0
  0x0f, 0x85, 0x01, 0x00, 0x00, 0x00,              // 35: jne 42
  0xc3,                                            // 41: ret
  0xe9, 0x00, 0x00, 0x00, 0x40,                    // 42: jmp (far)
};

// C2's epilogue of a small method: the frame popped, the return poll, ret.
static const u1 c2_epilogue[] = {
  0x48, 0x83, 0xc4, 0x10,                          //  0: add rsp, 0x10
  0x5d,                                            //  4: pop rbp
  0x49, 0x3b, 0x67, 0x28,                          //  5: cmp rsp, [r15+0x28]
  0x0f, 0x87, 0x01, 0x00, 0x00, 0x00,              //  9: ja 16
  0xc3,                                            // 15: ret
  0xcc,                                            // 16: (the poll's stub)
};

// C2's prologue without a stack bang, four words of frame; complete at 26.
static const u1 c2_prologue[] = {
  0x48, 0x81, 0xec, 0x18, 0x00, 0x00, 0x00,        //  0: sub rsp, 0x18
  0x48, 0x89, 0x6c, 0x24, 0x10,                    //  7: mov [rsp+0x10], rbp
  0x41, 0x81, 0x7f, 0x20, 0x01, 0x00, 0x00, 0x00,  // 12: cmp dword [r15+0x20], 1
  0x0f, 0x85, 0x40, 0x00, 0x00, 0x00,              // 20: jne (out of line, past these bytes)
  0x8d, 0x04, 0x76,                                // 26: lea eax, [rsi+rsi*2]
  0x83, 0xf0, 0x07,                                // 29: xor eax, 7
};

// A native wrapper's inline cache check and prologue (ten words of frame);
// verified entry at 16, complete at 47.
static const u1 wrapper_prologue[] = {
  0x66, 0x90,                                      //  0: nop
  0x44, 0x8b, 0x56, 0x08,                          //  2: mov r10d, [rsi+8]
  0x44, 0x3b, 0x50, 0x08,                          //  6: cmp r10d, [rax+8]
  0x0f, 0x85, 0x00, 0x00, 0x00, 0x40,              // 10: jne ic miss
  0x89, 0x84, 0x24, 0x00, 0xc0, 0xfe, 0xff,        // 16: mov [rsp-0x14000], eax
  0x55,                                            // 23: push rbp
  0x48, 0x8b, 0xec,                                // 24: mov rbp, rsp
  0x48, 0x83, 0xec, 0x40,                          // 27: sub rsp, 0x40
  0x90,                                            // 31: nop
  0x41, 0x81, 0x7f, 0x20, 0x00, 0x00, 0x00, 0x00,  // 32: cmp dword [r15+0x20], 0
  0x74, 0x05,                                      // 40: je 47
  0xe8, 0x00, 0x00, 0x00, 0x40,                    // 42: call entry barrier
  0x48, 0x8b, 0xd6,                                // 47: mov rdx, rsi
  0x49, 0xbe, 1, 2, 3, 4, 5, 6, 7, 8,              // 50: mov r14, imm64
};

static AsgstCodeLayout layout(const u1* code, size_t size, int verified_entry, int complete, int frame_words) {
  AsgstCodeLayout result = { code, code + size, code + verified_entry, code + complete, frame_words };
  return result;
}

static int slot_at(const AsgstCodeLayout& code, int offset, int* saved_fp_slot) {
  *saved_fp_slot = -99;
  int caller_sp_words = -99;
  int slot = AsgstFrameEdges::return_address_slot(code, code.begin + offset, saved_fp_slot, &caller_sp_words);
  // A call pushes the return address just below the caller's sp.
  EXPECT_TRUE(slot < 0 || caller_sp_words == slot + 1) << "offset " << offset;
  return slot;
}

TEST_VM(asgst_frame_edges, native_wrapper_after_leave) {
  // Complete before its tail (as a wrapper's frame is, up to its leave).
  AsgstCodeLayout code = layout(wrapper_tail, sizeof(wrapper_tail), 0, 0, 10);
  int fp_slot;
  EXPECT_EQ(-1, slot_at(code, 0, &fp_slot)) << "at leave the frame is still there";
  for (int offset : {1, 6, 30, 35, 41}) {
    EXPECT_EQ(0, slot_at(code, offset, &fp_slot)) << "offset " << offset;
    EXPECT_EQ(-1, fp_slot) << "offset " << offset;
  }
}

TEST_VM(asgst_frame_edges, compiled_epilogue) {
  AsgstCodeLayout code = layout(c2_epilogue, sizeof(c2_epilogue), 0, 0, 4);
  int fp_slot;
  EXPECT_EQ(-1, slot_at(code, 0, &fp_slot)) << "before add rsp the frame is still there";
  EXPECT_EQ(1, slot_at(code, 4, &fp_slot)) << "at pop rbp";
  EXPECT_EQ(0, fp_slot) << "the caller's rbp is at sp";
  for (int offset : {5, 9, 15}) {
    EXPECT_EQ(0, slot_at(code, offset, &fp_slot)) << "offset " << offset;
    EXPECT_EQ(-1, fp_slot);
  }
}

TEST_VM(asgst_frame_edges, compiled_prologue) {
  AsgstCodeLayout code = layout(c2_prologue, sizeof(c2_prologue), 0, 26, 4);
  int fp_slot;
  EXPECT_EQ(0, slot_at(code, 0, &fp_slot)) << "before sub rsp";
  EXPECT_EQ(-1, fp_slot);
  EXPECT_EQ(3, slot_at(code, 7, &fp_slot)) << "before rbp is stored";
  EXPECT_EQ(-1, fp_slot);
  EXPECT_EQ(3, slot_at(code, 12, &fp_slot)) << "at the entry barrier";
  EXPECT_EQ(2, fp_slot);
  EXPECT_EQ(3, slot_at(code, 20, &fp_slot));
  EXPECT_EQ(-1, slot_at(code, 26, &fp_slot)) << "the frame is complete";
  EXPECT_EQ(-1, slot_at(code, 29, &fp_slot));
}

TEST_VM(asgst_frame_edges, native_wrapper_prologue) {
  AsgstCodeLayout code = layout(wrapper_prologue, sizeof(wrapper_prologue), 16, 47, 10);
  int fp_slot;
  for (int offset : {0, 2, 6, 10}) {
    EXPECT_EQ(0, slot_at(code, offset, &fp_slot)) << "inline cache check, offset " << offset;
  }
  EXPECT_EQ(0, slot_at(code, 16, &fp_slot)) << "stack bang";
  EXPECT_EQ(0, slot_at(code, 23, &fp_slot)) << "push rbp";
  EXPECT_EQ(-1, fp_slot);
  EXPECT_EQ(1, slot_at(code, 24, &fp_slot)) << "mov rbp, rsp";
  EXPECT_EQ(0, fp_slot);
  EXPECT_EQ(1, slot_at(code, 27, &fp_slot)) << "sub rsp";
  for (int offset : {31, 32, 40, 42}) {
    EXPECT_EQ(9, slot_at(code, offset, &fp_slot)) << "offset " << offset;
    EXPECT_EQ(8, fp_slot) << "offset " << offset;
  }
  EXPECT_EQ(-1, slot_at(code, 47, &fp_slot)) << "the frame is complete";
}

// A C1-compiled OSR method (22 words of frame): its normal prologue
// (complete at 31), a body, its epilogue, and at 59 the OSR entry, where
// build_frame runs again for the interpreter's jump (bytes from
// -XX:+PrintNMethods of a C1 OSR compilation).
static const u1 c1_osr_method[] = {
  0x89, 0x84, 0x24, 0x00, 0xc0, 0xfe, 0xff,        //  0: mov [rsp-0x14000], eax
  0x55,                                            //  7: push rbp
  0x48, 0x81, 0xec, 0xa0, 0x00, 0x00, 0x00,        //  8: sub rsp, 0xa0
  0x90,                                            // 15: nop
  0x41, 0x81, 0x7f, 0x20, 0x01, 0x00, 0x00, 0x00,  // 16: cmp dword [r15+0x20], 1
  0x74, 0x05,                                      // 24: je 31
  0xe8, 0x00, 0x00, 0x00, 0x40,                    // 26: call entry barrier
  0x48, 0x8b, 0x84, 0x24, 0x80, 0x00, 0x00, 0x00,  // 31: mov rax, [rsp+0x80]
  0x48, 0x81, 0xc4, 0xa0, 0x00, 0x00, 0x00,        // 39: add rsp, 0xa0
  0x5d,                                            // 46: pop rbp
  0x49, 0x3b, 0x67, 0x28,                          // 47: cmp rsp, [r15+0x28]
  0x0f, 0x87, 0x01, 0x00, 0x00, 0x00,              // 51: ja 58
  0xc3,                                            // 57: ret
  0xcc,                                            // 58: (the poll's stub)
  0x89, 0x84, 0x24, 0x00, 0xc0, 0xfe, 0xff,        // 59: mov [rsp-0x14000], eax (OSR entry)
  0x55,                                            // 66: push rbp
  0x48, 0x81, 0xec, 0xa0, 0x00, 0x00, 0x00,        // 67: sub rsp, 0xa0
  0x66, 0x90,                                      // 74: nop
  0x41, 0x81, 0x7f, 0x20, 0x00, 0x00, 0x00, 0x00,  // 76: cmp dword [r15+0x20], 0
  0x74, 0x05,                                      // 84: je 91
  0xe8, 0x00, 0x00, 0x00, 0x40,                    // 86: call entry barrier
  0xbf, 0x08, 0x00, 0x00, 0x00,                    // 91: mov edi, 8 (the OSR buffer's copy)
  0x48, 0x63, 0xff,                                // 96: movsxd rdi, edi
  0x48, 0x8b, 0x1c, 0x3e,                          // 99: mov rbx, [rsi+rdi]
};

static int osr_slot_at(const AsgstCodeLayout& code, int osr_entry, int offset, int* saved_fp_slot) {
  *saved_fp_slot = -99;
  int caller_sp_words = -99;
  int slot = AsgstFrameEdges::osr_return_address_slot(code, code.begin + osr_entry, code.begin + offset,
                                                      saved_fp_slot, &caller_sp_words);
  EXPECT_TRUE(slot < 0 || caller_sp_words == slot + 1) << "offset " << offset;
  return slot;
}

TEST_VM(asgst_frame_edges, c1_osr_entry) {
  AsgstCodeLayout code = layout(c1_osr_method, sizeof(c1_osr_method), 0, 31, 22);
  int fp_slot;
  EXPECT_EQ(0, osr_slot_at(code, 59, 59, &fp_slot)) << "at the OSR entry the return address is at sp";
  EXPECT_EQ(-1, fp_slot);
  EXPECT_EQ(0, osr_slot_at(code, 59, 66, &fp_slot)) << "push rbp";
  EXPECT_EQ(-1, fp_slot);
  EXPECT_EQ(1, osr_slot_at(code, 59, 67, &fp_slot)) << "sub rsp";
  EXPECT_EQ(0, fp_slot);
  for (int offset : {74, 76, 84, 86, 91, 99}) {
    EXPECT_EQ(-1, osr_slot_at(code, 59, offset, &fp_slot)) << "the frame is complete, offset " << offset;
  }
  // The normal entry and the epilogue as in a method without an OSR entry.
  EXPECT_EQ(0, osr_slot_at(code, 59, 7, &fp_slot)) << "normal entry, push rbp";
  EXPECT_EQ(1, osr_slot_at(code, 59, 8, &fp_slot)) << "normal entry, sub rsp";
  EXPECT_EQ(0, fp_slot);
  EXPECT_EQ(-1, osr_slot_at(code, 59, 31, &fp_slot)) << "normal entry, the frame is complete";
  EXPECT_EQ(1, osr_slot_at(code, 59, 46, &fp_slot)) << "pop rbp";
  EXPECT_EQ(0, fp_slot);
  EXPECT_EQ(0, osr_slot_at(code, 59, 57, &fp_slot)) << "ret";
}

// C1's calls of the slow subtype check stub, which take two words on the
// stack (LIR_Assembler::emit_typecheck_helper), with low and high registers.
static const u1 c1_subtype_check[] = {
  0x52,                                            //  0: push rdx
  0x50,                                            //  1: push rax
  0xe8, 0x00, 0x01, 0x00, 0x00,                    //  2: call 0x107 (the stub)
  0x5a,                                            //  7: pop rdx
  0x58,                                            //  8: pop rax
  0x85, 0xc0,                                      //  9: test eax, eax
  0x41, 0x50,                                      // 11: push r8
  0x41, 0x51,                                      // 13: push r9
  0xe8, 0xf3, 0x00, 0x00, 0x00,                    // 15: call 0x107 (the stub)
  0x41, 0x59,                                      // 20: pop r9
  0x41, 0x58,                                      // 22: pop r8
  0x85, 0xc0,                                      // 24: test eax, eax
};

TEST_VM(asgst_frame_edges, words_pushed_for_c1_stub_call) {
  AsgstCodeLayout code = layout(c1_subtype_check, sizeof(c1_subtype_check), 0, 0, 4);
  address stub = (address)c1_subtype_check + 0x107;
  const int expected[][2] = { {0, 0}, {1, 1}, {2, 2}, {7, 2}, {8, 1}, {9, 0},
                              {11, 0}, {13, 1}, {15, 2}, {20, 2}, {22, 1}, {24, 0} };
  for (const int* e : expected) {
    EXPECT_EQ(e[1], AsgstFrameEdges::words_pushed_for_call(code, code.begin + e[0], stub)) << "offset " << e[0];
    // A call of another target pushes nothing that the walker knows.
    EXPECT_EQ(0, AsgstFrameEdges::words_pushed_for_call(code, code.begin + e[0], stub + 1)) << "offset " << e[0];
  }
}

// Calls into a stub as compiled code makes them: call rel32 (C1, the
// interpreter) and mov r, imm64; call r (C2's Java_To_Runtime), with a low
// and a high register. The targets are filled in at run time.
TEST_VM(asgst_frame_edges, returns_from_call_into) {
  static u1 stub[16];
  static u1 code[] = {
    0xe8, 0, 0, 0, 0,                                //  0: call stub + 4
    0x49, 0xba, 0, 0, 0, 0, 0, 0, 0, 0,              //  5: mov r10, stub + 8
    0x41, 0xff, 0xd2,                                // 15: call r10
    0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,              // 18: mov rax, stub
    0xff, 0xd0,                                      // 28: call rax
    0xc3,                                            // 30: ret
  };
  int32_t rel = (int32_t)((stub + 4) - (code + 5));
  memcpy(code + 1, &rel, sizeof(rel));
  address high_target = stub + 8;
  address low_target = stub;
  memcpy(code + 7, &high_target, sizeof(high_target));
  memcpy(code + 20, &low_target, sizeof(low_target));
  address begin = stub;
  address end = stub + sizeof(stub);
  EXPECT_TRUE(AsgstFrameEdges::returns_from_call_into(code + 5, begin, end));
  EXPECT_TRUE(AsgstFrameEdges::returns_from_call_into(code + 18, begin, end));
  EXPECT_TRUE(AsgstFrameEdges::returns_from_call_into(code + 30, begin, end));
  // Elsewhere, or into other code.
  for (int offset : {1, 4, 6, 15, 17, 20, 28, 29}) {
    EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(code + offset, begin, end)) << "offset " << offset;
  }
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(code + 5, stub + 5, end));
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(code + 18, begin, stub + 8));
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(code + 30, stub + 1, end));
  // Any word: nothing readable there.
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(nullptr, begin, end));
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into((address)16, begin, end));
}

// Any bytes, any pc: an answer within the frame or -1, no read outside the
// code (which ends where an inaccessible page begins).
TEST_VM(asgst_frame_edges, garbage_instructions) {
  const size_t page = os::vm_page_size();
  char* base = os::reserve_memory(2 * page, mtTest);
  ASSERT_NE(nullptr, base);
  ASSERT_TRUE(os::commit_memory(base, page, false));
  const size_t size = 64;
  u1* bytes = (u1*)base + page - size;
  unsigned int seed = 12345;
  for (int round = 0; round < 20000; round++) {
    for (size_t i = 0; i < size; i++) {
      seed = seed * 1103515245 + 12345;
      bytes[i] = (u1)(seed >> 16);
    }
    int frame_words = 2 + round % 8;
    AsgstCodeLayout code = layout(bytes, size, round % 5, round % 40, frame_words);
    for (int offset = 0; offset < (int)size; offset++) {
      int fp_slot;
      int slot = slot_at(code, offset, &fp_slot);
      ASSERT_TRUE(slot == -1 || slot == 0 || slot == 1 || (slot > 1 && slot < frame_words)) << slot;
      int pushed = AsgstFrameEdges::words_pushed_for_call(code, code.begin + offset, (address)bytes + round % 80);
      ASSERT_TRUE(pushed >= 0 && pushed <= 2) << pushed;
    }
  }
  os::release_memory(base, 2 * page);
}

#endif // AMD64

#ifdef AARCH64

// Instructions as HotSpot 25 emits them on aarch64 (MacroAssembler::build_frame,
// remove_frame, enter, leave; safepoint_poll; the nmethod entry barrier).

// C2's prologue of a method with four words of frame; complete at 0x1c.
static const uint32_t c2_prologue[] = {
  0xd503201f,  // 0x00: nop (the verified entry)
  0xd10083ff,  // 0x04: sub sp, sp, #0x20
  0xa9017bfd,  // 0x08: stp x29, x30, [sp, #16]
  0x180000c8,  // 0x0c: ldr w8, <guard>
  0xb9402389,  // 0x10: ldr w9, [x28, #32]
  0x6b09011f,  // 0x14: cmp w8, w9
  0x54000081,  // 0x18: b.ne (the barrier's stub, past these instructions)
  0x0b020020,  // 0x1c: add w0, w1, w2
  0x11001c00,  // 0x20: add w0, w0, #7
};

// C2's epilogue of the same method: the frame popped, the return poll, ret,
// and the poll's stub (whose far jump leads out of reach here).
static const uint32_t c2_epilogue[] = {
  0xa9417bfd,  // 0x00: ldp x29, x30, [sp, #16]
  0x910083ff,  // 0x04: add sp, sp, #0x20
  0xf9401788,  // 0x08: ldr x8, [x28, #40]
  0xeb2863ff,  // 0x0c: cmp sp, x8
  0x54000048,  // 0x10: b.hi 0x18
  0xd65f03c0,  // 0x14: ret
  0x10ffff48,  // 0x18: adr x8, <poll pc>
  0xf902a388,  // 0x1c: str x8, [x28, #1344]
  0x140003fe,  // 0x20: b (far)
};

// A native wrapper's inline cache check and prologue (ten words of frame);
// verified entry at 0x10, complete at 0x34.
static const uint32_t wrapper_prologue[] = {
  0xb9400828,  // 0x00: ldr w8, [x1, #8]
  0xb9400809,  // 0x04: ldr w9, [x0, #8]
  0x6b09011f,  // 0x08: cmp w8, w9
  0x54007fa1,  // 0x0c: b.ne (ic miss)
  0xd503201f,  // 0x10: nop
  0xd14053e9,  // 0x14: sub x9, sp, #0x14, lsl #12 (stack bang)
  0xf900013f,  // 0x18: str xzr, [x9]
  0xa9bf7bfd,  // 0x1c: stp x29, x30, [sp, #-16]!
  0x910003fd,  // 0x20: mov x29, sp
  0xd10103ff,  // 0x24: sub sp, sp, #0x40
  0xb9402388,  // 0x28: ldr w8, [x28, #32]
  0x34000048,  // 0x2c: cbz w8, 0x34
  0xd63f0100,  // 0x30: blr x8 (entry barrier)
  0xaa0103e2,  // 0x34: mov x2, x1
};

// A native wrapper's tail: leave, the pending exception check, ret, and the
// far jump to the forward-exception stub.
static const uint32_t wrapper_tail[] = {
  0x910003bf,  // 0x00: mov sp, x29
  0xa8c17bfd,  // 0x04: ldp x29, x30, [sp], #16
  0xf9400788,  // 0x08: ldr x8, [x28, #8]
  0xb5000048,  // 0x0c: cbnz x8, 0x14
  0xd65f03c0,  // 0x10: ret
  0x140003fb,  // 0x14: b (far)
};

static AsgstCodeLayout layout(const uint32_t* code, size_t size, int verified_entry, int complete, int frame_words) {
  const u1* begin = (const u1*)code;
  AsgstCodeLayout result = { begin, begin + size, begin + verified_entry, begin + complete, frame_words };
  return result;
}

struct Edge {
  int slot;             // words above sp, AsgstFrameEdges::in_link_register, or -1
  int saved_fp_slot;
  int caller_sp_words;
};

static Edge edge_at(const AsgstCodeLayout& code, int offset) {
  Edge e = { -99, -99, -99 };
  e.slot = AsgstFrameEdges::return_address_slot(code, code.begin + offset, &e.saved_fp_slot, &e.caller_sp_words);
  return e;
}

static const int in_lr = AsgstFrameEdges::in_link_register;

TEST_VM(asgst_frame_edges, compiled_prologue) {
  AsgstCodeLayout code = layout(c2_prologue, sizeof(c2_prologue), 0, 0x1c, 4);
  for (int offset : {0x00, 0x04}) {
    Edge e = edge_at(code, offset);
    EXPECT_EQ(in_lr, e.slot) << "before the frame is built, offset " << offset;
    EXPECT_EQ(-1, e.saved_fp_slot);
    EXPECT_EQ(0, e.caller_sp_words);
  }
  Edge e = edge_at(code, 0x08);
  EXPECT_EQ(in_lr, e.slot) << "sp lowered, the record not stored";
  EXPECT_EQ(4, e.caller_sp_words);
  for (int offset : {0x0c, 0x10, 0x14, 0x18}) {
    e = edge_at(code, offset);
    EXPECT_EQ(3, e.slot) << "the record stored, offset " << offset;
    EXPECT_EQ(2, e.saved_fp_slot);
    EXPECT_EQ(4, e.caller_sp_words);
  }
  EXPECT_EQ(-1, edge_at(code, 0x1c).slot) << "the frame is complete";
  EXPECT_EQ(-1, edge_at(code, 0x20).slot);
}

TEST_VM(asgst_frame_edges, compiled_epilogue) {
  AsgstCodeLayout code = layout(c2_epilogue, sizeof(c2_epilogue), 0, 0, 4);
  EXPECT_EQ(-1, edge_at(code, 0x00).slot) << "before the reload the frame is whole";
  Edge e = edge_at(code, 0x04);
  EXPECT_EQ(in_lr, e.slot) << "reloaded, sp not raised yet";
  EXPECT_EQ(-1, e.saved_fp_slot);
  EXPECT_EQ(4, e.caller_sp_words);
  for (int offset : {0x08, 0x0c, 0x10, 0x14}) {
    e = edge_at(code, offset);
    EXPECT_EQ(in_lr, e.slot) << "the return poll, offset " << offset;
    EXPECT_EQ(-1, e.saved_fp_slot);
    EXPECT_EQ(0, e.caller_sp_words);
  }
}

TEST_VM(asgst_frame_edges, native_wrapper_prologue) {
  AsgstCodeLayout code = layout(wrapper_prologue, sizeof(wrapper_prologue), 0x10, 0x34, 10);
  for (int offset : {0x00, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18, 0x1c}) {
    Edge e = edge_at(code, offset);
    EXPECT_EQ(VerifyOops && offset < 0x10 ? -1 : in_lr, e.slot) << "offset " << offset;
    if (e.slot == in_lr) {
      EXPECT_EQ(0, e.caller_sp_words) << "offset " << offset;
    }
  }
  for (int offset : {0x20, 0x24}) {
    Edge e = edge_at(code, offset);
    EXPECT_EQ(1, e.slot) << "the record pushed, offset " << offset;
    EXPECT_EQ(0, e.saved_fp_slot);
    EXPECT_EQ(2, e.caller_sp_words);
  }
  for (int offset : {0x28, 0x2c, 0x30}) {
    Edge e = edge_at(code, offset);
    EXPECT_EQ(9, e.slot) << "the frame built, offset " << offset;
    EXPECT_EQ(8, e.saved_fp_slot);
    EXPECT_EQ(10, e.caller_sp_words);
  }
  EXPECT_EQ(-1, edge_at(code, 0x34).slot) << "the frame is complete";
}

TEST_VM(asgst_frame_edges, native_wrapper_after_leave) {
  AsgstCodeLayout code = layout(wrapper_tail, sizeof(wrapper_tail), 0, 0, 10);
  EXPECT_EQ(-1, edge_at(code, 0x00).slot) << "at mov sp, x29 the frame is whole";
  Edge e = edge_at(code, 0x04);
  EXPECT_EQ(1, e.slot) << "only the record is left, at sp";
  EXPECT_EQ(0, e.saved_fp_slot);
  EXPECT_EQ(2, e.caller_sp_words);
  for (int offset : {0x08, 0x0c, 0x10}) {
    e = edge_at(code, offset);
    EXPECT_EQ(in_lr, e.slot) << "offset " << offset;
    EXPECT_EQ(0, e.caller_sp_words);
  }
}

// C1's calls of the slow subtype check stub, which take two words on the
// stack (LIR_Assembler::emit_typecheck_helper): near (bl) and far (adrp,
// add, blr through rscratch1, MacroAssembler::far_call).
static const uint32_t c1_subtype_check_near[] = {
  0xa9bf0be1,  // 0x00: stp x1, x2, [sp, #-16]!
  0x94000040,  // 0x04: bl 0x104 (the stub)
  0xa8c107e2,  // 0x08: ldp x2, x1, [sp], #16
  0xb4000042,  // 0x0c: cbz x2, 0x14
};

static const uint32_t c1_subtype_check_far[] = {
  0xa9bf0be1,  // 0x00: stp x1, x2, [sp, #-16]!
  0xb0000008,  // 0x04: adrp x8, (this page + 4096)
  0x91004108,  // 0x08: add x8, x8, #0x10 (the stub)
  0xd63f0100,  // 0x0c: blr x8
  0xf84107e1,  // 0x10: ldr x1, [sp], #16
  0x34000041,  // 0x14: cbz w1, 0x1c
};

TEST_VM(asgst_frame_edges, words_pushed_for_c1_stub_call) {
  AsgstCodeLayout near_call = layout(c1_subtype_check_near, sizeof(c1_subtype_check_near), 0, 0, 4);
  address near_stub = (address)near_call.begin + 0x104;
  const int near_expected[][2] = { {0x00, 0}, {0x04, 2}, {0x08, 2}, {0x0c, 0} };
  for (const int* e : near_expected) {
    EXPECT_EQ(e[1], AsgstFrameEdges::words_pushed_for_call(near_call, near_call.begin + e[0], near_stub))
        << "offset " << e[0];
    EXPECT_EQ(0, AsgstFrameEdges::words_pushed_for_call(near_call, near_call.begin + e[0], near_stub + 4))
        << "offset " << e[0];
  }
  AsgstCodeLayout far_call = layout(c1_subtype_check_far, sizeof(c1_subtype_check_far), 0, 0, 4);
  address far_stub = (address)(((uintptr_t)far_call.begin + 4) & ~(uintptr_t)0xfff) + 4096 + 0x10;
  const int far_expected[][2] = { {0x00, 0}, {0x04, 2}, {0x08, 2}, {0x0c, 2}, {0x10, 2}, {0x14, 0} };
  for (const int* e : far_expected) {
    EXPECT_EQ(e[1], AsgstFrameEdges::words_pushed_for_call(far_call, far_call.begin + e[0], far_stub))
        << "offset " << e[0];
    EXPECT_EQ(0, AsgstFrameEdges::words_pushed_for_call(far_call, far_call.begin + e[0], far_stub + 4))
        << "offset " << e[0];
  }
}

// Calls into a stub as compiled code makes them: bl (near), bl to a
// trampoline (MacroAssembler::trampoline_call) and the far call (adrp,
// add, blr through x8). The targets are filled in at run time.
static uint32_t encode_bl(const void* from, const void* to) {
  return 0x94000000 | (uint32_t)((((const u1*)to - (const u1*)from) / 4) & 0x3ffffff);
}

TEST_VM(asgst_frame_edges, returns_from_call_into) {
  static uint32_t stub[4];
  static uint64_t trampoline[2];   // ldr x8, #8; br x8; then the target's address
  static uint32_t code[8];
  uint32_t* tramp = (uint32_t*)trampoline;
  tramp[0] = 0x58000048;
  tramp[1] = 0xd61f0100;
  address far_target = (address)(stub + 2);
  code[0] = encode_bl(&code[0], &stub[1]);                   // bl stub + 4, returns to 4
  code[1] = encode_bl(&code[1], trampoline);                 // bl trampoline, returns to 8
  int64_t pages = (int64_t)(((uintptr_t)far_target >> 12) - ((uintptr_t)&code[2] >> 12));
  code[2] = 0x90000008 | (uint32_t)((pages & 3) << 29) | (uint32_t)(((pages >> 2) & 0x7ffff) << 5);  // adrp x8
  code[3] = 0x91000108 | (uint32_t)(((uintptr_t)far_target & 0xfff) << 10);                             // add x8, x8
  code[4] = 0xd63f0100;                                      // blr x8, returns to 20
  code[5] = 0xd503201f;                                      // nop
  address begin = (address)stub;
  address end = (address)(stub + 4);
  address base = (address)code;
  for (int target_in_stub = 0; target_in_stub < 2; target_in_stub++) {
    trampoline[1] = target_in_stub == 1 ? (uint64_t)(stub + 3) : (uint64_t)(code + 7);
    EXPECT_EQ(target_in_stub == 1, AsgstFrameEdges::returns_from_call_into(base + 8, begin, end));
  }
  EXPECT_TRUE(AsgstFrameEdges::returns_from_call_into(base + 4, begin, end));
  EXPECT_TRUE(AsgstFrameEdges::returns_from_call_into(base + 20, begin, end));
  for (int offset : {0, 12, 16, 24, 6}) {
    EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(base + offset, begin, end)) << "offset " << offset;
  }
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(base + 4, begin + 8, end));
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(base + 20, begin, begin + 8));
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into(nullptr, begin, end));
  EXPECT_FALSE(AsgstFrameEdges::returns_from_call_into((address)16, begin, end));
}

// Any instructions, any pc: an answer within the frame or -1, no read
// outside the code (which ends where an inaccessible page begins).
TEST_VM(asgst_frame_edges, garbage_instructions) {
  const size_t page = os::vm_page_size();
  char* base = os::reserve_memory(2 * page, mtTest);
  ASSERT_NE(nullptr, base);
  ASSERT_TRUE(os::commit_memory(base, page, false));
  const size_t size = 64;
  uint32_t* words = (uint32_t*)(base + page - size);
  // Real prologue and epilogue instructions among random ones, so that
  // paths get long.
  const uint32_t common[] = { 0xd10083ff, 0xa9017bfd, 0xa9417bfd, 0x910083ff, 0xd65f03c0, 0xa9bf7bfd,
                              0xa8c17bfd, 0x54000048, 0xd503201f, 0xf9401788 };
  unsigned int seed = 12345;
  for (int round = 0; round < 20000; round++) {
    for (size_t i = 0; i < size / sizeof(uint32_t); i++) {
      seed = seed * 1103515245 + 12345;
      uint32_t r = seed >> 8;
      seed = seed * 1103515245 + 12345;
      words[i] = (r & 1) != 0 ? common[(r >> 1) % (sizeof(common) / sizeof(common[0]))] : (r << 8) ^ (seed >> 16);
    }
    int frame_words = 2 + round % 8;
    AsgstCodeLayout code = layout(words, size, 4 * (round % 5), 4 * (round % 16), frame_words);
    for (int offset = 0; offset < (int)size; offset += 4) {
      int pushed = AsgstFrameEdges::words_pushed_for_call(code, code.begin + offset, (address)words + 4 * (round % 20));
      ASSERT_TRUE(pushed == 0 || pushed == 2) << pushed;
      Edge e = edge_at(code, offset);
      if (e.slot == -1) {
        continue;
      }
      ASSERT_TRUE(e.slot == in_lr || (e.slot >= 0 && e.slot < frame_words)) << e.slot;
      ASSERT_TRUE(e.caller_sp_words >= 0 && e.caller_sp_words <= frame_words) << e.caller_sp_words;
      ASSERT_TRUE(e.slot == in_lr ? e.saved_fp_slot == -1 : e.caller_sp_words > e.slot) << e.slot;
    }
  }
  os::release_memory(base, 2 * page);
}

#endif // AARCH64

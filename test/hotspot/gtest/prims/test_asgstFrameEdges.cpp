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
 */

#include "nmt/memTag.hpp"
#include "prims/asgstFrameEdges.hpp"
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
  return AsgstFrameEdges::return_address_slot(code, code.begin + offset, saved_fp_slot);
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
    }
  }
  os::release_memory(base, 2 * page);
}

#endif // AMD64

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

// On CPUs whose frames AsgstSenderStep does not know, every step is left to
// frame::safe_for_sender and frame::sender. A CPU that knows them implements
// the class in cpu/<cpu>/asgstSenderStep_<cpu>.cpp instead (x86_64, aarch64).

#include "prims/asgstSenderStep.hpp"

#if !defined(AMD64) && !defined(AARCH64)

bool AsgstSenderStep::java_caller(JavaThread* thread, const frame& f, AsgstSeenLast* seen, frame* caller,
                                  bool* caller_checked) {
  return false;
}

// Nothing known: the step relies on frame::safe_for_sender, as
// AsyncGetCallTrace does.
bool AsgstSenderStep::sender_reads_checked_words(const frame& f) {
  return true;
}

#endif // !AMD64 && !AARCH64

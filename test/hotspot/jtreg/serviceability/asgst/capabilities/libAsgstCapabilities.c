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

/* An agent that calls ASGST_Capabilities and ASGST_Version through the installed profile.h. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* for dladdr */
#endif
#include <dlfcn.h>
#include <stddef.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"

static int agent_loaded = 0;
static int capabilities_at_load = -1;
static jint version_at_load = -1;

JNIEXPORT jint JNICALL
Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  (void)vm; (void)options; (void)reserved;
  /* Before the VM is initialized: no JNIEnv, no JVMTI, only the function itself. */
  capabilities_at_load = ASGST_Capabilities();
  version_at_load = ASGST_Version();
  agent_loaded = 1;
  return JNI_OK;
}

JNIEXPORT jboolean JNICALL
Java_AsgstCapabilities_agentLoaded(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return agent_loaded ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jint JNICALL
Java_AsgstCapabilities_capabilitiesAtAgentLoad(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return capabilities_at_load;
}

JNIEXPORT jint JNICALL
Java_AsgstCapabilities_versionAtAgentLoad(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return version_at_load;
}

JNIEXPORT jint JNICALL
Java_AsgstCapabilities_versionNow(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return ASGST_Version();
}

/* The version the agent was compiled against: the installed header's. */
JNIEXPORT jint JNICALL
Java_AsgstCapabilities_headerVersion(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return ASGST_VERSION;
}

JNIEXPORT jint JNICALL
Java_AsgstCapabilities_capabilitiesNow(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return ASGST_Capabilities();
}

/* The file of the shared object that the VM's library, looked up by its
   name as a profiler would (dlopen of the loaded "libjvm.so"), finds the
   symbol in. By default the test VMs have the signal-safety check preloaded
   (doc/testing.md), whose definition a global lookup finds first. */
JNIEXPORT jstring JNICALL
Java_AsgstCapabilities_libraryDefiningCapabilities(JNIEnv* env, jclass cls) {
  Dl_info info;
  void* jvm = dlopen("libjvm.so", RTLD_LAZY | RTLD_NOLOAD);
  void* symbol = jvm == NULL ? NULL : dlsym(jvm, "ASGST_Capabilities");
  (void)cls;
  if (symbol == NULL || dlsym(RTLD_DEFAULT, "ASGST_Capabilities") != (void*)&ASGST_Capabilities ||
      dladdr(symbol, &info) == 0 || info.dli_fname == NULL) {
    return NULL;
  }
  return (*env)->NewStringUTF(env, info.dli_fname);
}

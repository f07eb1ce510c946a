// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pyrun: Debian's Python interpreter as a small program that loads
 * libpython3.11.so.1.0, for the test VM.  Debian's /usr/bin/python3
 * carries a static copy of the interpreter (6.6 MB) and pyverbs'
 * extension modules need the shared library as well (another 7.5 MB):
 * with this launcher the initramfs carries the interpreter once.  The
 * library finds its prefix (/usr) by itself, so the standard library
 * and dist-packages are where Debian put them.
 */
#include <dlfcn.h>
#include <stdio.h>

#define PYRUN_LIB "libpython3.11.so.1.0"

typedef int (*pyrun_main_t)(int argc, char **argv);

int main(int argc, char **argv)
{
	pyrun_main_t run;
	void *lib;

	/* global: extension modules resolve the interpreter's symbols */
	lib = dlopen(PYRUN_LIB, RTLD_NOW | RTLD_GLOBAL);
	if (!lib) {
		fprintf(stderr, "pyrun: %s\n", dlerror());
		return 127;
	}
	run = (pyrun_main_t)dlsym(lib, "Py_BytesMain");
	if (!run) {
		fprintf(stderr, "pyrun: %s\n", dlerror());
		return 127;
	}
	return run(argc, argv);
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * anon-file.h - a file nobody else can see: scratch space for the .dat
 * writer's spool, and the unnamed first form of trace-fxt's outputs.
 */
#ifndef _ANON_FILE_H
#define _ANON_FILE_H

/**
 * anon_file_open() - an unnamed read-write file in @dir
 * @dir: the directory (its filesystem holds the data)
 *
 * O_TMPFILE where the filesystem has it: the file never has a name
 * unless linkat() gives it one.  Elsewhere a file is created with a
 * unique name and unlinked at once.
 *
 * Return: the fd (O_CLOEXEC), or -1 with errno set.
 */
int anon_file_open(const char *dir);

#endif /* _ANON_FILE_H */

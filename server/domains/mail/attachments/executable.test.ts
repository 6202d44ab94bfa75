import { describe, expect, it } from 'vitest';
import { refusalOf } from './executable';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('refusalOf', () => {
  it.each<[string, Uint8Array, string, string, string | null]>([
    ['PE renamed .txt', bytes(0x4d, 0x5a, 0x90, 0x00), 'notes.txt', 'text/plain', 'executable_content'],
    ['ELF', bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1), 'data.bin.txt', 'text/plain', 'executable_content'],
    ['Mach-O 64', bytes(0xcf, 0xfa, 0xed, 0xfe), 'photo.jpg', 'image/jpeg', 'executable_content'],
    ['Java class', bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52), 'x.pdf', 'application/pdf', 'executable_content'],
    ['wasm', bytes(0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0), 'x.dat', 'application/octet-stream', 'executable_content'],
    ['shebang', text('#!/bin/sh\necho hi'), 'readme.txt', 'text/plain', 'script_content'],
    ['shebang after BOM', bytes(0xef, 0xbb, 0xbf, 0x23, 0x21, 0x2f), 'readme.md', 'text/markdown', 'script_content'],
    ['.exe by name', text('hello'), 'setup.EXE', 'application/octet-stream', 'executable_name'],
    ['.js by name', text('alert(1)'), 'invoice.pdf.js', 'application/pdf', 'executable_name'],
    ['trailing dots and spaces', text('x'), 'run.bat . ', 'text/plain', 'executable_name'],
    ['.ps1', text('Write-Host'), 'a.ps1', 'text/plain', 'executable_name'],
    ['.jar', bytes(0x50, 0x4b, 3, 4), 'tool.jar', 'application/zip', 'executable_name'],
    ['script type', text('x'), 'noext', 'application/javascript; charset=utf-8', 'executable_type'],
    ['a PDF', text('%PDF-1.7'), 'invoice.pdf', 'application/pdf', null],
    ['a zip', bytes(0x50, 0x4b, 3, 4), 'photos.zip', 'application/zip', null],
    ['plain text mentioning MZ later', text('hello MZ'), 'a.txt', 'text/plain', null],
    ['empty file', bytes(), 'empty.txt', 'text/plain', null],
    ['a single M', bytes(0x4d), 'm.txt', 'text/plain', null],
  ])('%s', (_name, head, filename, mime, reason) => {
    expect(refusalOf(head, filename, mime)?.reason ?? null).toBe(reason);
  });
});

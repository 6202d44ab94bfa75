/**
 * Whether an uploaded file is a program or a script, decided by its first bytes first (a renamed
 * executable is still refused), then by its name and declared type. Pure.
 *
 * Content: Windows PE (`MZ`), ELF, Mach-O (32/64-bit, both byte orders, universal), Java class
 * files (`CAFEBABE`, which universal Mach-O shares), WebAssembly, and scripts starting with `#!`
 * (also after a UTF-8 byte order mark). Names: the extensions Windows, macOS and Linux run or
 * install directly. Types: the executable and script media types.
 */

export interface Refusal {
  reason: 'executable_content' | 'script_content' | 'executable_name' | 'executable_type';
  detail: string;
}

const magic: { bytes: number[]; detail: string; reason: Refusal['reason'] }[] = [
  { bytes: [0x4d, 0x5a], detail: 'Windows executable (MZ)', reason: 'executable_content' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], detail: 'ELF executable', reason: 'executable_content' },
  { bytes: [0xfe, 0xed, 0xfa, 0xce], detail: 'Mach-O executable', reason: 'executable_content' },
  { bytes: [0xfe, 0xed, 0xfa, 0xcf], detail: 'Mach-O executable', reason: 'executable_content' },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], detail: 'Mach-O executable', reason: 'executable_content' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], detail: 'Mach-O executable', reason: 'executable_content' },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], detail: 'Java class or universal Mach-O', reason: 'executable_content' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], detail: 'WebAssembly module', reason: 'executable_content' },
  { bytes: [0x23, 0x21], detail: 'script (#!)', reason: 'script_content' },
  { bytes: [0xef, 0xbb, 0xbf, 0x23, 0x21], detail: 'script (#!)', reason: 'script_content' },
];

/** How many leading bytes the check needs. */
export const sniffBytes = 8;

const extensions: ReadonlySet<string> = new Set([
  'exe', 'com', 'bat', 'cmd', 'scr', 'pif', 'cpl', 'msi', 'msp', 'mst', 'msc', 'dll', 'sys', 'drv', 'ocx',
  'js', 'jse', 'mjs', 'cjs', 'vbs', 'vbe', 'wsf', 'wsh', 'wsc', 'ws', 'hta', 'ps1', 'psm1', 'psd1', 'ps1xml', 'psc1',
  'sh', 'bash', 'zsh', 'csh', 'ksh', 'command', 'run', 'elf', 'so', 'dylib', 'app', 'pkg', 'dmg',
  'jar', 'class', 'war', 'ear', 'apk', 'appx', 'msix', 'xap', 'deb', 'rpm', 'lnk', 'inf', 'reg', 'scf', 'url', 'application', 'gadget',
  'py', 'pyw', 'pl', 'rb', 'php', 'vb', 'vba', 'xll', 'wasm', 'chm', 'appref-ms', 'settingcontent-ms',
]);

const types: ReadonlySet<string> = new Set([
  'application/x-msdownload', 'application/x-msdos-program', 'application/x-ms-installer', 'application/x-msi',
  'application/vnd.microsoft.portable-executable', 'application/x-executable', 'application/x-elf', 'application/x-mach-binary',
  'application/x-sharedlib', 'application/x-sh', 'application/x-csh', 'application/x-shellscript', 'text/x-shellscript',
  'application/java-archive', 'application/x-java-archive', 'application/java-vm', 'application/x-java-class',
  'application/javascript', 'text/javascript', 'application/x-javascript', 'application/ecmascript', 'text/ecmascript',
  'application/x-bat', 'application/x-powershell', 'text/x-python', 'application/x-python-code', 'application/x-perl',
  'application/x-php', 'application/hta', 'application/wasm', 'application/vnd.android.package-archive',
  'application/x-apple-diskimage', 'text/vbscript', 'application/x-vbscript',
]);

export function refusalOf(head: Uint8Array, filename: string, mime: string): Refusal | null {
  for (const entry of magic) {
    if (entry.bytes.length <= head.length && entry.bytes.every((byte, index) => head[index] === byte)) return { reason: entry.reason, detail: entry.detail };
  }
  const name = filename.trim().toLowerCase().replace(/[\s.]+$/u, '');
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1) : '';
  if (extensions.has(extension)) return { reason: 'executable_name', detail: `.${extension}` };
  const mediaType = mime.split(';', 1)[0].trim().toLowerCase();
  if (types.has(mediaType)) return { reason: 'executable_type', detail: mediaType };
  return null;
}

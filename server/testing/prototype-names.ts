/**
 * Names that live on Object.prototype (and `prototype`, which lives on functions): a user-chosen key
 * with one of these names must behave like any other key (issue 6, item 3). One list for every test.
 */
export const prototypeNames = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
] as const;

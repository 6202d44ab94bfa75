'use client';

/**
 * The errors of a form's fields, as the dialogs keep them: all set at once when the form is submitted
 * (`setErrors(found)`), or from the server's answer; each cleared as soon as its field is edited
 * (`clearError(key)`), so a corrected field stops saying it is wrong before the next submit.
 */
import { useState } from 'react';

export function useFieldErrors<E extends object>(initial: E | (() => E) = {} as E) {
  const [errors, setErrors] = useState<E>(initial);
  const clearError = (key: keyof E) => setErrors((found) => ({ ...found, [key]: undefined }));
  return { errors, setErrors, clearError };
}

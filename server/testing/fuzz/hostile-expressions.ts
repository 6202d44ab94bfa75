/**
 * Hostile JSONata for the expression fuzz family (runner/engine/expression-fuzz.int.test.ts): what a
 * member could type into a parameter to hurt the process that evaluates it. Each family draws its
 * sizes from the seeded generator, so `FUZZ_SEED` regenerates a run's exact expressions. Every
 * expression parses (a syntax error would test nothing) and stays under the 5,000-character limit.
 */
import type { Rng } from './prng';

export interface HostileExpression {
  family: string;
  source: string;
}

const walkers = ['$length', '$uppercase', '$lowercase', '$trim', '$base64encode', '$encodeUrlComponent', '$string', '$reverse', '$split'];

/** `$s` doubled `n` times with `&` (O(1) ropes), handed to `walker`. */
function doubling(rng: Rng): string {
  const seed = 'abcdefghijklmnop'.slice(0, rng.int(1, 16));
  const times = rng.int(16, 40);
  const walker = rng.pick(walkers);
  const call = walker === '$split' ? `$count($split($d, ""))` : walker === '$reverse' ? `$length($d & "")` : `${walker}($d)`;
  return `($f := function($s,$n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $d := $f("${seed}", ${times}); ${call})`;
}

const families: Record<string, (rng: Rng) => string> = {
  'deep recursion': (rng) =>
    rng.pick([
      `($f := function($n){ $n = 0 ? 0 : 1 + $f($n - 1) }; $f(${rng.int(1_000, 1_000_000)}))`,
      `($f := function($n){ $f($n + 1) }; $f(0))`,
      `($a := function($n){ $n = 0 ? 0 : $b($n - 1) + 1 }; $b := function($n){ $a($n) }; $a(${rng.int(500, 100_000)}))`,
      `($f := function($n){ $n < 2 ? $n : $f($n - 1) + $f($n - 2) }; $f(${rng.int(28, 45)}))`,
      `($f := function($x){ [$x, $f([$x])] }; $f(1))`,
    ]),
  'huge strings': (rng) =>
    rng.pick([
      doubling(rng),
      `$pad("x", ${rng.pick([1e7, 1e9, 1e12, -1e8])}, "${'ab'.repeat(rng.int(1, 50))}")`,
      `$length($join([1..${rng.int(10_000, 100_000)}].($pad("", ${rng.int(100, 5_000)}, "z"))))`,
      `$string([1..${rng.int(10_000, 100_000)}].{"k": $pad("", ${rng.int(10, 1_000)}, "v")})`,
      `$replace($pad("", ${rng.int(100_000, 999_999)}, "a"), "a", $pad("", ${rng.int(2, 1_000)}, "bb"))`,
      `$fromMillis(0, "[Y,${rng.int(2_000_000, 999_999_999)}]")`,
      `$now("[H01,${rng.int(2_000_000, 999_999_999)}]")`,
      `$formatNumber(1, "${'0'.repeat(rng.int(100, 3_000))}")`,
      `$uppercase($pad("", ${rng.int(500_001, 999_999)}, "ß"))`,
    ]),
  'huge arrays': (rng) =>
    rng.pick([
      `[1..${rng.pick([1e6, 1e7, 1e9, 100_001])}]`,
      `($f := function($a,$n){ $n = 0 ? $a : $f($append($a, $a), $n - 1) }; $count($f([1], ${rng.int(17, 40)})))`,
      `$count($split($pad("", ${rng.int(100_001, 999_999)}, "x"), ""))`,
      `$zip([1..${rng.int(50_000, 100_000)}], [1..${rng.int(50_000, 100_000)}], [1..${rng.int(50_000, 100_000)}])`,
      `[1..${rng.int(300, 1_000)}].([1..${rng.int(300, 1_000)}])`,
      `$spread([1..${rng.int(50_000, 100_000)}].{$string($): $})`,
    ]),
  'regex bombs': (rng) => {
    const subject = `$pad("", ${rng.int(10_000, 999_999)}, "a") & "!"`;
    return rng.pick([
      `$match(${subject}, /(a+)+$/)`,
      `$contains(${subject}, /(a|aa)*b/)`,
      `$replace(${subject}, /a*/, "$0$0$0$0")`,
      `$split(${subject}, /(a?){${rng.int(10, 200)}}a{${rng.int(10, 200)}}/)`,
      `$match("aaaa", /(a)\\1/)`,
      `$count($match(${subject}, /a/))`,
      `$match("x", /${'(a|b)'.repeat(rng.int(50, 300))}/)`,
    ]);
  },
  '$eval nesting': (rng) => {
    const levels = rng.int(2, 12);
    let inner = rng.pick(['1 + 1', doubling(rng), '[1..100000000]', '$eval("$eval(\\"2\\")")']);
    // Quotes escape again at every level: stop nesting before the 5,000-character limit.
    for (let level = 0; level < levels; level += 1) {
      const next = `$eval(${JSON.stringify(inner)})`;
      if (next.length > 4_900) break;
      inner = next;
    }
    return rng.pick([inner, `$eval($pad("", ${rng.int(5_001, 900_000)}, " ") & "1")`, `($e := function($s, $n){ $n = 0 ? $eval($s) : $e("$eval(" & $string($s) & ")", $n - 1) }; $e("1", ${rng.int(5, 50)}))`]);
  },
  'sort, map, reduce over huge ranges': (rng) => {
    const n = rng.int(50_000, 100_000);
    return rng.pick([
      `$sort([1..${n}], function($a, $b){ $a < $b })`,
      `$reduce([1..${n}], function($acc, $v){ $acc & $string($v) })`,
      `$map([1..${n}], function($v){ $pad($string($v), ${rng.int(100, 10_000)}) })`,
      `$count($distinct([1..${n}]))`,
      `$filter([1..${n}], function($v){ $count([1..${n}][$ = $v]) > 0 })`,
      `$sum([1..${n}].($sum([1..${n}])))`,
    ]);
  },
  'object keys from huge strings': (rng) =>
    rng.pick([
      `{ $pad("", ${rng.int(500_000, 2_000_000)}, "k"): 1 }`,
      `$merge([1..${rng.int(10_000, 100_000)}].{ $pad($string($), ${rng.int(100, 10_000)}, "k"): $ })`,
      `[1..${rng.int(1_000, 100_000)}]{ $pad($string($), ${rng.int(1_000, 100_000)}, "g"): $ }`,
      `$keys([1..${rng.int(10_000, 100_000)}]{ $string($): $pad("", ${rng.int(100, 1_000)}) })`,
      `$lookup({ "a": 1 }, $pad("", ${rng.int(1_000_001, 5_000_000)}, "a"))`,
    ]),
};

export const hostileFamilies = Object.keys(families);

/** `count` expressions, cycling through the families so each appears, sizes from `rng`. */
export function hostileExpressions(rng: Rng, count: number): HostileExpression[] {
  const out: HostileExpression[] = [];
  for (let index = 0; index < count; index += 1) {
    const family = hostileFamilies[index % hostileFamilies.length];
    out.push({ family, source: families[family](rng.fork(`${family}:${index}`)) });
  }
  return out;
}

import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { twMerge } from 'tailwind-merge'
import { describe, expect, test } from 'vitest'
import { cn } from './cn'

/** Every whitespace-separated word of every string literal in app/ (tests and cn.ts aside): the classes written. */
function classesWritten() {
  const words = new Set<string>()
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) visit(file)
      // cn.ts itself names the groups, not classes.
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && file !== path.join('app', 'ui', 'cn.ts')) {
        for (const literal of readFileSync(file, 'utf8').matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)) {
          for (const part of literal[2]!.split(/\$\{[^}]*\}/)) for (const word of part.split(/\s+/)) if (word) words.add(word)
        }
      }
    }
  }
  visit('app')
  // The words tailwind-merge knows as classes (a word it merges with itself).
  return [...words].filter((word) => twMerge(`${word} ${word}`) === word)
}

describe('cn merges the classes the app writes as the full tailwind-merge does', () => {
  const classes = classesWritten()

  test('the app writes hundreds of classes, variants included', () => {
    expect(classes.length).toBeGreaterThan(400)
    expect(classes).toContain('md:flex')
  })

  test('every class written is known to cn', () => {
    const missing = classes.filter((name) => cn(`${name} ${name}`) !== name)
    expect(missing, 'classes to add to their group in app/ui/cn.ts').toEqual([])
  })

  test('every pair of classes written merges the same', () => {
    const different: string[] = []
    for (const first of classes) {
      for (const second of classes) {
        const pair = `${first} ${second}`
        if (cn(pair) !== twMerge(pair)) different.push(`${pair} → ${cn(pair)}, not ${twMerge(pair)}`)
      }
    }
    expect(different.slice(0, 20)).toEqual([])
  })

  test('the app’s own calls: a later class replaces an earlier one of its group, others stay', () => {
    expect(cn('px-3 py-2 text-sm', 'px-4')).toBe('py-2 text-sm px-4')
    expect(cn('p-4', 'px-2')).toBe('p-4 px-2')
    expect(cn('px-2', 'p-4')).toBe('p-4')
    expect(cn('hidden md:flex', 'flex')).toBe('md:flex flex')
    expect(cn('text-sm font-medium', 'text-lg')).toBe('font-medium text-lg')
    expect(cn('bg-primary text-primary-foreground', 'bg-destructive')).toBe('text-primary-foreground bg-destructive')
    expect(cn('rounded-md border', 'custom-class', 'rounded-full')).toBe('border custom-class rounded-full')
  })
})

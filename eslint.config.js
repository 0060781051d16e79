import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', 'coverage/**', '.tap/**', 'data/**'] })
]

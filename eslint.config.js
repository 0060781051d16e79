import neostandard from 'neostandard'

export default [
  // test/generated holds what openapi-typescript writes (npm run openapi:types), in its own style.
  ...neostandard({ ts: true, ignores: ['dist/**', 'coverage/**', '.tap/**', 'data/**', 'test/generated/**', 'bench/.service/**'] }),
  {
    // A line is read without scrolling. URLs cannot be broken; everything else can.
    rules: { '@stylistic/max-len': ['error', { code: 140, ignoreUrls: true }] }
  }
]

/**
 * 5,000 synthetic palette entries that look like the records the palette will list (DESIGN §8,
 * issue 3 item 10): a few commands, then projects (codes like 'IND-00421'), subjects of those
 * projects, CRF pages and samples, each with a Chinese title, its English twin as `alt`, and
 * keywords built the way src/app/Palette.tsx builds them (zh title, en title, codes).
 * Deterministic (a seeded PRNG), so every run and both lists see the same entries.
 */
import type { PaletteEntry } from '../../src/ui/paletteRank.ts'

export const sections = ['navigation', 'project', 'subject', 'crf', 'sample'] as const
export type BenchSection = (typeof sections)[number]

export const headings: Readonly<Record<BenchSection, string>> = {
  navigation: '导航 · Navigation',
  project: '项目 · Projects',
  subject: '受试者 · Subjects',
  crf: '病例报告表 · CRFs',
  sample: '样本 · Samples',
}

/** mulberry32: small, fast, good enough to make varied but repeatable data. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Pair = readonly [zh: string, en: string]

const diseases: readonly Pair[] = [
  ['非小细胞肺癌', 'non-small cell lung cancer'],
  ['小细胞肺癌', 'small cell lung cancer'],
  ['早期肺癌', 'early-stage lung cancer'],
  ['乳腺癌', 'breast cancer'],
  ['胃癌', 'gastric cancer'],
  ['肝细胞癌', 'hepatocellular carcinoma'],
  ['结直肠癌', 'colorectal cancer'],
  ['原发性高血压', 'essential hypertension'],
  ['2 型糖尿病', 'type 2 diabetes'],
  ['冠心病', 'coronary heart disease'],
  ['慢性阻塞性肺疾病', 'chronic obstructive pulmonary disease'],
  ['类风湿关节炎', 'rheumatoid arthritis'],
  ['缺血性脑卒中', 'ischaemic stroke'],
  ['慢性肾脏病', 'chronic kidney disease'],
  ['妊娠期高血压', 'gestational hypertension'],
]

const interventions: readonly Pair[] = [
  ['EGFR-TKI 靶向治疗', 'EGFR-TKI targeted therapy'],
  ['PD-1 抑制剂免疫治疗', 'PD-1 inhibitor immunotherapy'],
  ['新辅助化疗', 'neoadjuvant chemotherapy'],
  ['强化血压控制', 'intensive blood pressure control'],
  ['家庭血压监测管理', 'home blood pressure monitoring'],
  ['SGLT2 抑制剂', 'SGLT2 inhibitors'],
  ['低剂量阿司匹林', 'low-dose aspirin'],
  ['中医药联合治疗', 'combined traditional Chinese medicine'],
  ['康复训练', 'rehabilitation training'],
  ['生活方式干预', 'lifestyle intervention'],
]

const designs: readonly Pair[] = [
  ['III 期多中心随机对照研究', 'phase III multicentre randomised controlled trial of'],
  ['II 期单臂研究', 'phase II single-arm study of'],
  ['前瞻性队列研究', 'prospective cohort study of'],
  ['真实世界研究', 'real-world study of'],
  ['单中心回顾性研究', 'single-centre retrospective study of'],
]

const forms: readonly Pair[] = [
  ['生命体征（血压、心率）', 'Vital signs (blood pressure, heart rate)'],
  ['诊室血压测量', 'Office blood pressure measurement'],
  ['血常规', 'Complete blood count'],
  ['肝功能', 'Liver function tests'],
  ['肾功能', 'Renal function tests'],
  ['不良事件', 'Adverse events'],
  ['合并用药', 'Concomitant medication'],
  ['入选/排除标准', 'Eligibility criteria'],
  ['知情同意', 'Informed consent'],
  ['影像学评估', 'Imaging assessment'],
  ['肿瘤疗效评价 RECIST 1.1', 'Tumour response (RECIST 1.1)'],
  ['生活质量问卷 EQ-5D', 'Quality of life (EQ-5D)'],
]

const specimens: readonly Pair[] = [
  ['血浆', 'Plasma'],
  ['血清', 'Serum'],
  ['全血', 'Whole blood'],
  ['肿瘤组织', 'Tumour tissue'],
  ['尿液', 'Urine'],
]

const surnames = ['张', '王', '李', '赵', '陈', '刘', '杨', '黄', '周', '吴', '徐', '孙', '马', '朱', '胡', '林']
const given = ['伟', '芳', '娜', '敏', '静', '磊', '洋', '艳', '勇', '军', '杰', '娟', '涛', '明', '超', '霞']

/** [zh title, en title, id, hotkey?] */
const commands: readonly (readonly [string, string, string, string?])[] = [
  ['多中心项目', 'Multi-center Projects', 'nav.projects.multi', 'Ctrl+Shift+M'],
  ['单中心项目', 'Single-center Projects', 'nav.projects.single'],
  ['数据字典', 'Data Dictionary', 'nav.dictionary'],
  ['表单模板', 'Form Templates', 'nav.templates'],
  ['患者管理', 'Patients', 'nav.patients'],
  ['样本管理', 'Samples', 'nav.samples'],
  ['数据导入', 'Data Loading', 'nav.loading'],
  ['数据申请', 'Data Applications', 'nav.applications'],
  ['检索', 'Search', 'nav.search', 'Ctrl+/'],
  ['用户管理', 'Users', 'nav.users'],
  ['向右拆分', 'Split Right', 'workspace.splitRight', 'Ctrl+\\'],
  ['向下拆分', 'Split Down', 'workspace.splitDown'],
  ['关闭标签页', 'Close Tab', 'workspace.closeTab', 'Alt+W'],
  ['切换到 English', 'Switch to English', 'view.lang.en'],
  ['切换到中文', 'Switch to 中文', 'view.lang.zh'],
  ['退出登录', 'Log Out', 'account.logout'],
]

const pad = (n: number, width: number) => String(n).padStart(width, '0')

export function makeEntries(total = 5000, seed = 20240421): PaletteEntry[] {
  const rnd = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!
  const out: PaletteEntry[] = []

  for (const [zh, en, id, hotkey] of commands) {
    if (out.length >= total) return out
    out.push({ id, section: 'navigation', title: zh, alt: en, keywords: [zh, en], hotkey: hotkey ?? null })
  }

  // The rest split 24 % projects, 40 % subjects, 20 % CRF pages, 16 % samples.
  const rest = Math.max(0, total - out.length)
  const nProjects = Math.max(1, Math.round(rest * 0.24))
  const nSubjects = Math.round(rest * 0.4)
  const nForms = Math.round(rest * 0.2)
  const nSamples = Math.max(0, rest - nProjects - nSubjects - nForms)

  interface Project {
    code: string
    zh: string
    en: string
    disease: Pair
  }
  const projects: Project[] = []
  const usedCodes = new Set<string>()
  for (let i = 0; i < nProjects; i++) {
    let code: string
    do code = `IND-${pad(Math.floor(rnd() * 2000), 5)}`
    while (usedCodes.has(code))
    usedCodes.add(code)
    const disease = pick(diseases)
    const intervention = pick(interventions)
    const design = pick(designs)
    const zh = `${disease[0]}${intervention[0]}${design[0]}`
    const en = `${design[1][0]!.toUpperCase()}${design[1].slice(1)} ${intervention[1]} in ${disease[1]}`
    projects.push({ code, zh, en, disease })
    out.push({ id: `project.${code}`, section: 'project', title: `${code} ${zh}`, alt: en, keywords: [zh, en, code] })
  }

  for (let i = 0; i < nSubjects; i++) {
    const p = pick(projects)
    const subject = `${p.code}-S${pad(Math.floor(rnd() * 9000) + 1, 4)}`
    const name = `${pick(surnames)}*${pick(given)}`
    const zh = `受试者 ${subject}（${name}）· ${p.disease[0]}`
    const en = `Subject ${subject} · ${p.disease[1]}`
    out.push({ id: `subject.${subject}.${i}`, section: 'subject', title: zh, alt: en, keywords: [zh, en, subject] })
  }

  for (let i = 0; i < nForms; i++) {
    const p = pick(projects)
    const form = pick(forms)
    const visit = Math.floor(rnd() * 12) + 1
    const code = `CRF-${p.code.slice(4)}-V${visit}`
    const zh = `${form[0]} · 第 ${visit} 次随访 · ${p.code}`
    const en = `${form[1]} · visit ${visit} · ${p.code}`
    out.push({ id: `crf.${code}.${i}`, section: 'crf', title: zh, alt: en, keywords: [zh, en, code] })
  }

  for (let i = 0; i < nSamples; i++) {
    const p = pick(projects)
    const s = pick(specimens)
    const code = `${s[1].slice(0, 2).toUpperCase()}-2024-${pad(i + 1, 6)}`
    const zh = `${s[0]}样本 ${code} · ${p.disease[0]}队列`
    const en = `${s[1]} sample ${code} · ${p.disease[1]} cohort`
    out.push({ id: `sample.${code}`, section: 'sample', title: zh, alt: en, keywords: [zh, en, code, p.code] })
  }
  return out
}

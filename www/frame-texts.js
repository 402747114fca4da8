// The first frame's texts (www/frame.js draws them before the app's module arrives).
// Written from the pages' own texts by `UNROLL_BLESS=1 cargo test -p unroll first_frame`:
// do not edit by hand.
var UNROLL_FRAME = {
  "all_lessons": {
    "en": "All lessons",
    "zh": "全部课程"
  },
  "brand": {
    "en": "RNN · LSTM · GRU, live in your browser",
    "zh": "RNN · LSTM · GRU，在浏览器中实时运行"
  },
  "html_lang": {
    "en": "en",
    "zh": "zh-CN"
  },
  "loading": {
    "en": "Loading the interactive page…",
    "zh": "正在加载交互页面…"
  },
  "nav": {
    "lessons": {
      "en": "Lessons",
      "zh": "课程"
    },
    "names": {
      "en": "Train on names",
      "zh": "姓氏分类训练"
    }
  },
  "pages": {
    "bidir": {
      "crumb": {
        "en": "Lesson 6",
        "zh": "第 6 课"
      },
      "number": 6,
      "title": {
        "en": "Bidirectional: two readers, one concatenation",
        "zh": "双向：两个读者，一次拼接"
      }
    },
    "bptt": {
      "crumb": {
        "en": "Lesson 3",
        "zh": "第 3 课"
      },
      "number": 3,
      "title": {
        "en": "Why gradients vanish",
        "zh": "梯度为什么会消失"
      }
    },
    "delay": {
      "title": {
        "en": "The delay-copy task",
        "zh": "延迟复制任务"
      }
    },
    "delay/adding": {
      "title": {
        "en": "Adding problem",
        "zh": "加法问题"
      }
    },
    "delay/copy": {
      "title": {
        "en": "Copy memory",
        "zh": "复制记忆"
      }
    },
    "delay/order": {
      "title": {
        "en": "Temporal order",
        "zh": "时间顺序"
      }
    },
    "generate": {
      "title": {
        "en": "Names, letter by letter",
        "zh": "逐字母写名字"
      }
    },
    "gru": {
      "crumb": {
        "en": "Lesson 5",
        "zh": "第 5 课"
      },
      "number": 5,
      "title": {
        "en": "GRU: one gate to keep and write",
        "zh": "GRU：一个门同时负责保留与写入"
      }
    },
    "index": {
      "title": {
        "en": "Recurrent networks, step by step",
        "zh": "循环神经网络，一步一步来"
      }
    },
    "lstm": {
      "crumb": {
        "en": "Lesson 4",
        "zh": "第 4 课"
      },
      "number": 4,
      "title": {
        "en": "The LSTM conveyor belt",
        "zh": "LSTM 的传送带"
      }
    },
    "names": {
      "title": {
        "en": "Which language is this surname from?",
        "zh": "这个姓氏来自哪种语言？"
      }
    },
    "parallel": {
      "crumb": {
        "en": "Lesson 8",
        "zh": "第 8 课"
      },
      "number": 8,
      "title": {
        "en": "Why Transformers replaced RNNs",
        "zh": "为什么 Transformer 取代了 RNN"
      }
    },
    "shapes": {
      "crumb": {
        "en": "Lesson 2",
        "zh": "第 2 课"
      },
      "number": 2,
      "title": {
        "en": "Unrolling is not stacking: shapes",
        "zh": "展开不是堆叠：张量形状"
      }
    },
    "softmax": {
      "crumb": {
        "en": "Lesson 7",
        "zh": "第 7 课"
      },
      "number": 7,
      "title": {
        "en": "logits → softmax → log → NLL",
        "zh": "logits → softmax → log → NLL"
      }
    },
    "unroll": {
      "crumb": {
        "en": "Lesson 1",
        "zh": "第 1 课"
      },
      "number": 1,
      "title": {
        "en": "Recurrence and time unrolling",
        "zh": "循环与按时间展开"
      }
    }
  },
  "tasks": {
    "adding": {
      "en": "Adding problem",
      "zh": "加法问题"
    },
    "copy": {
      "en": "Copy memory",
      "zh": "复制记忆"
    },
    "delay": {
      "en": "Delay-copy",
      "zh": "延迟复制"
    },
    "generate": {
      "en": "Names, letter by letter",
      "zh": "逐字母写名字"
    },
    "keys": [
      "delay",
      "adding",
      "copy",
      "order",
      "generate"
    ],
    "label": {
      "en": "Task",
      "zh": "任务"
    },
    "order": {
      "en": "Temporal order",
      "zh": "时间顺序"
    }
  },
  "title": {
    "en": "Unroll: recurrent networks, live in the browser",
    "zh": "Unroll：循环神经网络，在浏览器中实时运行"
  }
};
